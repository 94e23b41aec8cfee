/// Where our audio goes: a sink (or a Snapcast server and its rooms), its active port, and what
/// kind of device that is.
public struct AudioRoute: Sendable, Equatable {
    public var portType: PortType
    public var sinkName: String
    public var portName: String?
    /// For people: the port's description, else the sink's.
    public var description: String
    public var bus: String?
    /// The Bluetooth card profile (a2dp_sink, headset_head_unit, …), for Bluetooth devices.
    public var bluetoothProfile: String?

    public init(portType: PortType, sinkName: String, portName: String? = nil, description: String,
                bus: String? = nil, bluetoothProfile: String? = nil) {
        self.portType = portType
        self.sinkName = sinkName
        self.portName = portName
        self.description = description
        self.bus = bus
        self.bluetoothProfile = bluetoothProfile
    }

    public init(sink: SinkFacts) {
        self.init(portType: sink.portType, sinkName: sink.name, portName: sink.activePortName,
                  description: sink.activePort?.description ?? sink.description, bus: sink.bus,
                  bluetoothProfile: sink.bluetooth?.profile)
    }

    /// The route in `facts`: our stream's sink, or the default sink while we have no stream —
    /// or while our sink is already gone from the list but the server has not moved us yet
    /// (PipeWire reports the removal before the move; the default sink is where we will go).
    public init?(facts: SoundServerFacts) {
        guard let sink = facts.sink(named: facts.ourSinkName) ?? facts.sink(named: facts.defaultSinkName)
        else { return nil }
        self.init(sink: sink)
    }

    /// The same physical output: the same sink and port.
    public func isSameDevice(as other: AudioRoute) -> Bool {
        sinkName == other.sinkName && portName == other.portName
    }
}

internal import CPulse

/// What `pa_context_get_sink_info_list` reports about one sink (an output device).
public struct SinkInfo: Sendable, Equatable {
    public var index: UInt32
    public var name: String
    public var description: String
    /// The card the sink belongs to; nil for virtual sinks (null sink, combine, …).
    public var cardIndex: UInt32?
    /// `device.form_factor`, `device.bus`, `device.api`, … (the sink's proplist).
    public var properties: [String: String]
    public var ports: [Port]
    /// Name of the active port; nil when the sink has no ports.
    public var activePortName: String?

    /// `pa_sink_port_info`: one jack or output of the sink.
    public struct Port: Sendable, Equatable {
        public var name: String
        public var description: String
        public var priority: UInt32
        /// `pa_port_available`: whether something is plugged in, if the hardware can tell.
        public var availability: PortAvailability
        /// `pa_device_port_type_t` (PulseAudio ≥ 14; 0 = unknown): 2 speaker, 3 headphones, …
        public var type: UInt32

        init(_ port: pa_sink_port_info) {
            var copy = port
            name = port.name.map { String(cString: $0) } ?? ""
            description = port.description.map { String(cString: $0) } ?? ""
            priority = port.priority
            availability = PortAvailability(raw: port.available)
            type = aubade_pa_sink_port_type(&copy)
        }
    }

    init(_ info: pa_sink_info) {
        index = info.index
        name = info.name.map { String(cString: $0) } ?? ""
        description = info.description.map { String(cString: $0) } ?? ""
        cardIndex = info.card == aubade_pa_invalid_index ? nil : info.card
        properties = Proplist.dictionary(of: info.proplist)
        var ports: [Port] = []
        if let list = info.ports {
            for i in 0..<Int(info.n_ports) {
                if let port = list[i] { ports.append(Port(port.pointee)) }
            }
        }
        self.ports = ports
        activePortName = info.active_port.flatMap { $0.pointee.name.map { String(cString: $0) } }
    }
}

/// `pa_port_available`: whether a port's jack has something plugged in.
public enum PortAvailability: Sendable, Equatable {
    /// The hardware cannot tell (`PA_PORT_AVAILABLE_UNKNOWN`).
    case unknown
    case no
    case yes

    init(raw: Int32) {
        switch UInt32(bitPattern: raw) {
        case PA_PORT_AVAILABLE_NO.rawValue: self = .no
        case PA_PORT_AVAILABLE_YES.rawValue: self = .yes
        default: self = .unknown
        }
    }
}

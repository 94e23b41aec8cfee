internal import CPulse

/// What `pa_context_get_source_info_list` reports about one source (a capture device, or the
/// monitor of a sink). Thin on purpose: only what tells which card a capture stream uses.
public struct SourceInfo: Sendable, Equatable {
    public var index: UInt32
    public var name: String
    /// The card the source belongs to; nil for virtual sources (a null sink's monitor, …).
    public var cardIndex: UInt32?
    /// The sink this source monitors (`<sink>.monitor`); nil for a real capture device.
    /// A monitor belongs to its sink's card but records what the card plays, not its microphone.
    public var monitorOfSinkIndex: UInt32?

    /// For fakes and tests; real ones come from `Context.sources`.
    public init(index: UInt32, name: String, cardIndex: UInt32? = nil, monitorOfSinkIndex: UInt32? = nil) {
        self.index = index
        self.name = name
        self.cardIndex = cardIndex
        self.monitorOfSinkIndex = monitorOfSinkIndex
    }

    init(_ info: pa_source_info) {
        index = info.index
        name = info.name.map { String(cString: $0) } ?? ""
        cardIndex = info.card == aubade_pa_invalid_index ? nil : info.card
        monitorOfSinkIndex = info.monitor_of_sink == aubade_pa_invalid_index ? nil : info.monitor_of_sink
    }
}

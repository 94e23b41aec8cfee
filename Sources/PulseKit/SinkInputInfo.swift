internal import CPulse

/// What `pa_context_get_sink_input_info` reports about one playback stream on the server.
public struct SinkInputInfo: Sendable, Equatable {
    public var index: UInt32
    public var name: String
    /// Index of the sink it plays on.
    public var sinkIndex: UInt32
    public var volume: ChannelVolumes
    public var isMuted: Bool
    public var isCorked: Bool
    public var properties: [String: String]

    /// For tests of what the app makes of a stream.
    public init(index: UInt32, name: String = "", sinkIndex: UInt32, volume: ChannelVolumes = ChannelVolumes([]),
                isMuted: Bool = false, isCorked: Bool = false, properties: [String: String] = [:]) {
        self.index = index
        self.name = name
        self.sinkIndex = sinkIndex
        self.volume = volume
        self.isMuted = isMuted
        self.isCorked = isCorked
        self.properties = properties
    }

    init(_ info: pa_sink_input_info) {
        index = info.index
        name = info.name.map { String(cString: $0) } ?? ""
        sinkIndex = info.sink
        volume = ChannelVolumes(info.volume)
        isMuted = info.mute != 0
        isCorked = info.corked != 0
        properties = Proplist.dictionary(of: info.proplist)
    }
}

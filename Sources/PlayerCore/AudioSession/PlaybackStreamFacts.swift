/// Another program's playback stream (a PulseAudio sink input), as the adapter reads it: where
/// it plays and whose it is. The guard ties it to an MPRIS player by these.
public struct PlaybackStreamFacts: Sendable, Equatable {
    /// The server's index of the stream (`pa_sink_input_info.index`).
    public var index: UInt32
    /// The sink it plays to; nil when that sink is not in the same reading (it has just gone,
    /// and the server has not moved the stream yet).
    public var sinkName: String?
    /// `application.process.id`: the process that opened the stream (the client's own claim).
    public var processID: Int32?
    /// The parents of `processID`, nearest first, as the app found them in /proc (browsers and
    /// Electron apps play from a child of the process that owns the bus name).
    public var ancestors: [Int32] = []
    /// `application.process.binary` ("firefox-esr", "pacat").
    public var processBinary: String?
    /// `application.name` ("Firefox", "mpv Media Player").
    public var applicationName: String?
    /// The Flatpak application id, where the server names it (`pipewire.access.portal.app_id`).
    public var appID: String?
    /// `media.role` ("music", "phone", …).
    public var role: String?

    public init(index: UInt32, sinkName: String?, processID: Int32? = nil, ancestors: [Int32] = [],
                processBinary: String? = nil, applicationName: String? = nil, appID: String? = nil,
                role: String? = nil) {
        self.index = index
        self.sinkName = sinkName
        self.processID = processID
        self.ancestors = ancestors
        self.processBinary = processBinary
        self.applicationName = applicationName
        self.appID = appID
        self.role = role
    }

    /// The stream's process and its ancestors, nearest first.
    public var processChain: [Int32] { (processID.map { [$0] } ?? []) + ancestors }
}

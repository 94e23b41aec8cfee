/// Another MPRIS player on the session bus, as far as the audio-session category cares.
public struct OtherPlayer: Sendable, Equatable {
    /// Its well-known name (`org.mpris.MediaPlayer2.vlc`).
    public var name: String
    public var status: PlaybackStatus
    /// Its `mpris:trackid`, to know whether it is still on the track we paused.
    public var trackID: String?
    /// The PID of the connection that owns the name (`GetConnectionUnixProcessID`).
    public var processID: Int32?
    /// Its root interface's `Identity` ("mpv Media Player") and `DesktopEntry` ("mpv",
    /// "com.spotify.Client"): how a stream is tied to it when no process matches.
    public var identity: String?
    public var desktopEntry: String?

    public init(name: String, status: PlaybackStatus, trackID: String?, processID: Int32? = nil,
                identity: String? = nil, desktopEntry: String? = nil) {
        self.name = name
        self.status = status
        self.trackID = trackID
        self.processID = processID
        self.identity = identity
        self.desktopEntry = desktopEntry
    }
}

/// What the category remembers about the other players.
struct OtherPlayers: Sendable, Equatable {
    var known: [String: OtherPlayer] = [:]
    /// Players Aubade paused, with the track they were on: candidates for hand-back.
    var pausedByUs: [String: String?] = [:]
    /// The player whose start paused Aubade (PauseReason.otherPlayer).
    var interrupter: String?
    /// When the hand-back is due (after a person's pause), if one is pending.
    var handBackAt: Instant?
}

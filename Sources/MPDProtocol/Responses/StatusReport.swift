public import PlayerCore

/// What `status` says, filled by the server from the player (mpd's `handle_status`).
public struct StatusReport: Sendable, Equatable {
    public enum State: String, Sendable, Hashable {
        case play, pause, stop
    }

    /// A song of the queue by position and id (`song:`/`songid:`, `nextsong:`/`nextsongid:`).
    public struct QueueSong: Sendable, Hashable {
        public var position: Int
        public var id: Int
        public init(position: Int, id: Int) {
            self.position = position
            self.id = id
        }
    }

    /// 0…100; nil without a mixer (no `volume:` line).
    public var volume: Int?
    public var repeats: Bool
    public var random: Bool
    public var single: SingleMode
    public var consume: Bool
    public var partition: String
    /// The queue's version (`playlist:`), for `plchanges`.
    public var playlistVersion: UInt32
    public var playlistLength: Int
    public var mixRampDB: Float
    public var state: State
    /// Seconds; written when above 0.
    public var crossfadeSeconds: Int
    /// Seconds; written when above 0.
    public var mixRampDelay: Float
    public var current: QueueSong?
    /// Where the song is; written (with `time:`, `bitrate:`) unless stopped.
    public var elapsed: Microseconds
    /// The song's length; nil when unknown (a stream): `time:` then says 0, no `duration:`.
    public var duration: Microseconds?
    /// kbit/s of what is playing now.
    public var bitRate: Int
    public var audioFormat: AudioFormatFacts?
    /// The running update's job number (`updating_db:`).
    public var updateJob: Int?
    /// The player's last error (`error:`).
    public var error: String?
    public var next: QueueSong?

    public init(volume: Int? = nil, repeats: Bool = false, random: Bool = false, single: SingleMode = .off,
                consume: Bool = false, partition: String = "default", playlistVersion: UInt32 = 0,
                playlistLength: Int = 0, mixRampDB: Float = 0, state: State = .stop, crossfadeSeconds: Int = 0,
                mixRampDelay: Float = 0, current: QueueSong? = nil, elapsed: Microseconds = 0,
                duration: Microseconds? = nil, bitRate: Int = 0, audioFormat: AudioFormatFacts? = nil,
                updateJob: Int? = nil, error: String? = nil, next: QueueSong? = nil) {
        self.volume = volume
        self.repeats = repeats
        self.random = random
        self.single = single
        self.consume = consume
        self.partition = partition
        self.playlistVersion = playlistVersion
        self.playlistLength = playlistLength
        self.mixRampDB = mixRampDB
        self.state = state
        self.crossfadeSeconds = crossfadeSeconds
        self.mixRampDelay = mixRampDelay
        self.current = current
        self.elapsed = elapsed
        self.duration = duration
        self.bitRate = bitRate
        self.audioFormat = audioFormat
        self.updateJob = updateJob
        self.error = error
        self.next = next
    }
}

/// What `stats` says.
public struct StatsReport: Sendable, Equatable {
    /// Seconds since the daemon started.
    public var uptime: Int64
    /// Seconds of music played since it started.
    public var playtime: Int64
    /// nil without a library: only the two lines above.
    public var library: Library?

    public struct Library: Sendable, Equatable {
        public var artists: Int
        public var albums: Int
        public var songs: Int
        /// The sum of the songs' durations (`db_playtime:`, whole seconds).
        public var totalDuration: Microseconds
        /// When the library was last updated, seconds since 1970 (`db_update:`).
        public var lastUpdate: Int64?

        public init(artists: Int, albums: Int, songs: Int, totalDuration: Microseconds, lastUpdate: Int64?) {
            self.artists = artists
            self.albums = albums
            self.songs = songs
            self.totalDuration = totalDuration
            self.lastUpdate = lastUpdate
        }
    }

    public init(uptime: Int64, playtime: Int64, library: Library?) {
        self.uptime = uptime
        self.playtime = playtime
        self.library = library
    }
}

/// One audio output for `outputs`.
public struct OutputInfo: Sendable, Equatable {
    public var id: Int
    public var name: String
    /// The kind of output (`plugin:`): "pulse", "null"…
    public var plugin: String
    public var enabled: Bool
    /// Written `attribute: key=value`, sorted by key as mpd's map sorts them.
    public var attributes: [String: String]

    public init(id: Int, name: String, plugin: String, enabled: Bool, attributes: [String: String] = [:]) {
        self.id = id
        self.name = name
        self.plugin = plugin
        self.enabled = enabled
        self.attributes = attributes
    }
}

/// One decoder for `decoders`.
public struct DecoderInfo: Sendable, Equatable {
    public var plugin: String
    public var suffixes: [String]
    public var mimeTypes: [String]

    public init(plugin: String, suffixes: [String], mimeTypes: [String]) {
        self.plugin = plugin
        self.suffixes = suffixes
        self.mimeTypes = mimeTypes
    }
}

import MPDProtocol
import PlayerCore

/// Everything `aubade serve` can be told: from `$XDG_CONFIG_HOME/aubade/aubade.conf`, then the
/// command-line flags on top (`Settings.load(commandLine:)`).
///
/// Paths are absolute, with `~` and `$HOME` already expanded.
public struct Settings: Sendable, Equatable {
    /// Played at start when `aubade serve` is given no PATHs (key `music-folder`, repeated).
    public var musicFolders: [String] = []
    /// Where saved playlists live; nil: `$XDG_MUSIC_DIR/Playlists`.
    public var playlistsFolder: String?
    public var pauseOnRouteLoss = true
    public var pauseOnInterruption = true
    public var resumeOnReconnect = false
    /// Seconds within which the lost device must come back for `resumeOnReconnect`.
    public var reconnectWindow: Double = 30
    /// The stream's volume when nothing was saved by an earlier run (0…1.5, 1 = 100 %); nil: 1.
    public var initialVolume: Double?
    public var logLevel: LogLevel = .info
    /// Pause when the machine goes to sleep (logind's PrepareForSleep).
    public var pauseBeforeSleep = true
    /// How Aubade shares the speakers with other MPRIS players.
    public var category = SessionCategory.playback
    /// Seconds a person's pause must last before the players Aubade paused get Play back.
    public var handBackDelay: Double = 5
    /// Switch a Bluetooth headset from its call profile to A2DP when playing to it.
    public var preferA2DP = true
    /// Keep the machine from suspending on idle while playing.
    public var inhibitSleepWhilePlaying = true
    /// A CA bundle for HTTPS stations instead of the system's; nil = the system CAs.
    public var streamCAFile: String?
    /// Which ReplayGain tags level the music.
    public var replayGain = ReplayGainMode.off
    /// dB added to every tagged gain.
    public var replayGainPreamp: Double = 0
    /// The audio session for the other MPRIS players too: unplug, calls and sleep pause them.
    public var guardOtherPlayers = true
    /// Where the music goes: the local sound server, or a Snapcast server's rooms.
    public var output = OutputKind.pulseaudio
    /// The snapserver stream source the Snapcast output writes to.
    public var snapcastSource = SnapcastSource.serverDefault
    /// The snapserver's `buffer` (ms): how long after it reads audio the rooms play it.
    public var snapcastBuffer: Double = 1000
    /// The snapserver's JSON-RPC control port, for the page's rooms (each snapclient's volume
    /// and mute); nil: no rooms on the page.
    public var snapcastControl: SnapcastControlAddress? = .serverDefault
    /// Where MPD clients reach Aubade over TCP: an address, "any" for the LAN, nil for none
    /// (the Unix socket in $XDG_RUNTIME_DIR/aubade is always served).
    public var mpdAddress: String? = "127.0.0.1"
    public var mpdPort: Int = 6600
    /// `mpd-password` lines: each password with the permissions it gives.
    public var mpdPasswords: [String: MPDPermissions] = [:]
    /// What an MPD client may do before a password; nil: mpd's rule (all, or none once a
    /// password is set).
    public var mpdDefaultPermissions: MPDPermissions?
    public var mpdMaximumClients: Int = 100
    /// Seconds after which a silent MPD client is closed (mpd's `connection_timeout`).
    public var mpdTimeout: Double = 60
    /// Where the page is served: an address, "any" for the LAN, nil for no page.
    public var httpAddress: String? = "127.0.0.1"
    public var httpPort: Int = 6680

    public init() {}

    /// The guard's share of the settings.
    public var guardPolicy: GuardPolicy {
        GuardPolicy(policy, pauseBeforeSleep: pauseBeforeSleep, isOn: guardOtherPlayers)
    }

    /// The policy keys as PlayerCore's audio-session policy (the window in microseconds).
    public var policy: AudioSessionPolicy {
        var policy = AudioSessionPolicy()
        policy.pauseOnRouteLoss = pauseOnRouteLoss
        policy.pauseOnInterruption = pauseOnInterruption
        policy.resumeOnReconnect = resumeOnReconnect
        policy.reconnectWindow = Microseconds.microseconds(saturatingSeconds: reconnectWindow)
        policy.category = category
        policy.handBackDelay = Microseconds.microseconds(saturatingSeconds: handBackDelay)
        policy.preferA2DP = preferA2DP
        policy.inhibitSleepWhilePlaying = inhibitSleepWhilePlaying
        policy.replayGain = replayGain
        policy.replayGainPreamp = replayGainPreamp
        return policy
    }

    /// Valid ranges, shared by the file, the flags and the documentation.
    public static let volumeRange: ClosedRange<Double> = 0...1.5
    public static let reconnectWindowRange: ClosedRange<Double> = 0...86_400
    public static let handBackDelayRange: ClosedRange<Double> = 0...3_600
    public static let replayGainPreampRange: ClosedRange<Double> = -15...15
    public static let snapcastBufferRange: ClosedRange<Double> = 20...10_000
    public static let mpdMaximumClientsRange: ClosedRange<Double> = 1...10_000
    public static let mpdTimeoutRange: ClosedRange<Double> = 1...86_400

    /// Every key of the file, with its default and meaning, for `aubade serve --help` and the
    /// README.
    public static var documentation: String {
        var text = """
            Configuration file: $XDG_CONFIG_HOME/aubade/aubade.conf (~/.config/aubade/aubade.conf),
            or the file given with --config. One `key = value` per line; blank lines and lines
            starting with # are ignored, and so is the rest of a line after " #". A value may be
            put in "double" or 'single' quotes (needed when it starts or ends with spaces or holds
            " #"). Paths must be absolute; ~ and $HOME are expanded. No file means all defaults;
            an unknown key or a bad value stops aubade serve with the file, line and key.
            Command-line flags override the file. SIGHUP (systemctl --user reload aubade) reads
            the file again: every key takes effect at once, except playlists-folder (after a
            restart), output and the snapcast keys (after a restart too) and music-folder and
            volume (read only when aubade serve starts).

            """
        for key in ConfigurationKey.all {
            text += "\n  \(key.name) = \(key.placeholder)"
            text += "\n      default: \(key.defaultText)"
            if let flag = key.flag { text += "; flag: \(flag)" }
            for line in key.meaning { text += "\n      \(line)" }
        }
        return text + "\n"
    }
}

/// A key whose value a reload (SIGHUP) changed, and when the new value takes effect.
public struct SettingsChange: Sendable, Equatable {
    public enum Effect: Sendable, Equatable {
        /// Applied at once by the running daemon.
        case now
        /// Read only when `aubade serve` starts (music-folder, volume): the next start uses it.
        case nextStart
        /// Set up once at start (playlists-folder: the folder watched): needs a restart.
        case restart
    }

    public var key: String
    public var old: String
    public var new: String
    public var takesEffect: Effect

    public init(key: String, old: String, new: String, takesEffect: Effect) {
        self.key = key
        self.old = old
        self.new = new
        self.takesEffect = takesEffect
    }
}

extension Settings {
    /// The keys whose value differs in `new`, in the order of the documentation.
    public func changes(to new: Settings) -> [SettingsChange] {
        ConfigurationKey.all.compactMap { key in
            let (before, after) = (key.value(self), key.value(new))
            return before == after ? nil : SettingsChange(key: key.name, old: before, new: after, takesEffect: key.takesEffect)
        }
    }
}

/// One key of the file: its name, how its value is read, and its documentation. The parser and
/// `Settings.documentation` both read this table, so they cannot disagree.
struct ConfigurationKey: Sendable {
    var name: String
    var placeholder: String
    var defaultText: String
    var flag: String?
    var meaning: [String]
    /// `music-folder` may be given on several lines; every other key once.
    var repeatable = false
    /// Stores the value; throws the reason it is bad ("expected …").
    var apply: @Sendable (inout Settings, String, PathExpansion) throws(ValueError) -> Void
    /// When a new value read on SIGHUP takes effect.
    var takesEffect: SettingsChange.Effect = .now
    /// The key's value in `settings`, as text: compared to tell what a reload changed, and
    /// logged.
    var value: @Sendable (Settings) -> String

    static let all: [ConfigurationKey] = [
        ConfigurationKey(
            name: "music-folder", placeholder: "DIR", defaultText: "none", flag: "--music-folder DIR (repeatable)",
            meaning: ["A folder of the library: what MPD clients browse and search (one folder is the",
                      "library's root; several are its top-level folders). Repeat the key for several.",
                      "A file or M3U playlist given here is queued at the first start instead."],
            repeatable: true,
            apply: { settings, value, paths throws(ValueError) in settings.musicFolders.append(try paths.absolute(value)) },
            takesEffect: .nextStart,
            value: { settings in settings.musicFolders.isEmpty ? "(none)" : settings.musicFolders.joined(separator: ", ") }),
        ConfigurationKey(
            name: "playlists-folder", placeholder: "DIR", defaultText: "$XDG_MUSIC_DIR/Playlists (~/Music/Playlists)",
            flag: "--playlists-folder DIR",
            meaning: ["Where aubade save writes playlists and aubade load and MPRIS Playlists find them."],
            apply: { settings, value, paths throws(ValueError) in settings.playlistsFolder = try paths.absolute(value) },
            takesEffect: .restart,
            value: { settings in settings.playlistsFolder ?? "(default)" }),
        ConfigurationKey(
            name: "pause-on-route-loss", placeholder: "true|false", defaultText: "true",
            meaning: ["Pause when the headphones, headset, Bluetooth, USB or car device we play to goes away."],
            apply: { settings, value, _ throws(ValueError) in settings.pauseOnRouteLoss = try ValueError.boolean(value) },
            value: { settings in "\(settings.pauseOnRouteLoss)" }),
        ConfigurationKey(
            name: "pause-on-interruption", placeholder: "true|false", defaultText: "true",
            meaning: ["Pause during a call (a media.role=phone stream or a cork request), resume after it."],
            apply: { settings, value, _ throws(ValueError) in settings.pauseOnInterruption = try ValueError.boolean(value) },
            value: { settings in "\(settings.pauseOnInterruption)" }),
        ConfigurationKey(
            name: "resume-on-reconnect", placeholder: "true|false", defaultText: "false",
            flag: "--resume-on-reconnect / --no-resume-on-reconnect",
            meaning: ["After a pause for a lost device, resume when the same device comes back within",
                      "reconnect-window seconds (and nothing else paused the music meanwhile)."],
            apply: { settings, value, _ throws(ValueError) in settings.resumeOnReconnect = try ValueError.boolean(value) },
            value: { settings in "\(settings.resumeOnReconnect)" }),
        ConfigurationKey(
            name: "reconnect-window", placeholder: "SECONDS", defaultText: "30",
            meaning: ["How long a lost device may stay away and still resume the music (0 to 86400)."],
            apply: { settings, value, _ throws(ValueError) in
                settings.reconnectWindow = try ValueError.number(value, in: Settings.reconnectWindowRange,
                                                                 expected: "a number of seconds from 0 to 86400")
            },
            value: { settings in "\(settings.reconnectWindow)" }),
        ConfigurationKey(
            name: "volume", placeholder: "0…1.5", defaultText: "the volume saved at exit, else 1", flag: "--volume V",
            meaning: ["The stream's volume when no earlier run's volume was saved (--volume: at every",
                      "start). 1 is 100 %; 0.4 shows as 40 % in pavucontrol."],
            apply: { settings, value, _ throws(ValueError) in
                settings.initialVolume = try ValueError.number(value, in: Settings.volumeRange,
                                                               expected: "a number from 0 to 1.5 (1 = 100 %)")
            },
            takesEffect: .nextStart,
            value: { settings in settings.initialVolume.map { "\($0)" } ?? "(saved)" }),
        ConfigurationKey(
            name: "log-level", placeholder: "LEVEL", defaultText: "info", flag: "--log-level LEVEL",
            meaning: ["debug, info, notice, warning or error: the least important lines logged."],
            apply: { settings, value, _ throws(ValueError) in settings.logLevel = try ValueError.logLevel(value) },
            value: { settings in settings.logLevel.rawValue }),
        ConfigurationKey(
            name: "guard-other-players", placeholder: "true|false", defaultText: "true",
            flag: "--guard-other-players / --no-guard-other-players",
            meaning: ["The other MPRIS players get the same audio session: Pause when the device their",
                      "stream plays to goes away, during a call (Play after it, if untouched) and before",
                      "sleep; only players whose stream can be tied to them. Also `aubade guard`."],
            apply: { settings, value, _ throws(ValueError) in settings.guardOtherPlayers = try ValueError.boolean(value) },
            value: { settings in "\(settings.guardOtherPlayers)" }),
        ConfigurationKey(
            name: "pause-before-sleep", placeholder: "true|false", defaultText: "true",
            meaning: ["Pause when the machine suspends or hibernates (needs logind on the system bus)."],
            apply: { settings, value, _ throws(ValueError) in settings.pauseBeforeSleep = try ValueError.boolean(value) },
            value: { settings in "\(settings.pauseBeforeSleep)" }),
        ConfigurationKey(
            name: "category", placeholder: "playback|mixWithOthers", defaultText: "playback", flag: "--category C",
            meaning: ["playback: starting to play pauses the other MPRIS players that play, and hands them",
                      "back (Play) when Aubade stops, quits or stays paused; another player starting",
                      "pauses Aubade until it stops. mixWithOthers: play alongside them, pause nobody."],
            apply: { settings, value, _ throws(ValueError) in settings.category = try ValueError.category(value) },
            value: { settings in settings.category.rawValue }),
        ConfigurationKey(
            name: "hand-back-delay", placeholder: "SECONDS", defaultText: "5", flag: "--hand-back-delay S",
            meaning: ["How long a pause must last before the players Aubade paused get Play back (0 to 3600)."],
            apply: { settings, value, _ throws(ValueError) in
                settings.handBackDelay = try ValueError.number(value, in: Settings.handBackDelayRange,
                                                               expected: "a number of seconds from 0 to 3600")
            },
            value: { settings in "\(settings.handBackDelay)" }),
        ConfigurationKey(
            name: "prefer-a2dp", placeholder: "true|false", defaultText: "true",
            meaning: ["Switch a Bluetooth headset or car kit from its call profile (headset/hands-free) to",
                      "A2DP when playing to it, unless a call is using its microphone."],
            apply: { settings, value, _ throws(ValueError) in settings.preferA2DP = try ValueError.boolean(value) },
            value: { settings in "\(settings.preferA2DP)" }),
        ConfigurationKey(
            name: "inhibit-sleep-while-playing", placeholder: "true|false", defaultText: "true",
            meaning: ["Hold a logind sleep inhibitor while playing, released on pause or stop."],
            apply: { settings, value, _ throws(ValueError) in settings.inhibitSleepWhilePlaying = try ValueError.boolean(value) },
            value: { settings in "\(settings.inhibitSleepWhilePlaying)" }),
        ConfigurationKey(
            name: "stream-ca-file", placeholder: "FILE", defaultText: "the system's CAs",
            meaning: ["A PEM bundle of certificate authorities to check HTTPS stations against instead",
                      "of the system's (a private station, a company proxy). Checking is never turned off."],
            apply: { settings, value, paths throws(ValueError) in settings.streamCAFile = try paths.absolute(value) },
            value: { settings in settings.streamCAFile ?? "(system)" }),
        ConfigurationKey(
            name: "replaygain", placeholder: "off|track|album|auto", defaultText: "off", flag: "--replaygain MODE",
            meaning: ["Level the music by its ReplayGain tags (Vorbis comments, ID3 TXXX, the LAME header):",
                      "track: each song at the same loudness; album: each album, songs keep their",
                      "differences; auto: album while an album plays in order, track when shuffled or",
                      "mixed. Applied to the samples (Volume stays yours), lowered to keep the tagged",
                      "peak from clipping; a missing album gain falls back to the track gain and back.",
                      "A change applies from the next track."],
            apply: { settings, value, _ throws(ValueError) in
                guard let mode = ReplayGainMode(rawValue: value.lowercased()) else {
                    throw ValueError(expected: "off, track, album or auto")
                }
                settings.replayGain = mode
            },
            value: { settings in settings.replayGain.rawValue }),
        ConfigurationKey(
            name: "replaygain-preamp", placeholder: "DB", defaultText: "0",
            meaning: ["dB added to every ReplayGain gain (-15 to 15), e.g. 3 to play a little louder."],
            apply: { settings, value, _ throws(ValueError) in
                settings.replayGainPreamp = try ValueError.number(value, in: Settings.replayGainPreampRange,
                                                                  expected: "a number of dB from -15 to 15")
            },
            value: { settings in "\(settings.replayGainPreamp)" }),
        ConfigurationKey(
            name: "output", placeholder: "pulseaudio|snapcast", defaultText: "pulseaudio",
            meaning: ["pulseaudio: play on this machine's sound server (PulseAudio or PipeWire).",
                      "snapcast: write the music into a snapserver's pipe source (snapcast-source), for",
                      "every room with a snapclient; calls and sleep on this machine still pause it,",
                      "its headphones and sinks coming and going do not."],
            apply: { settings, value, _ throws(ValueError) in
                guard let kind = OutputKind(rawValue: value.lowercased()) else { throw ValueError(expected: "pulseaudio or snapcast") }
                settings.output = kind
            },
            takesEffect: .restart,
            value: { settings in settings.output.rawValue }),
        ConfigurationKey(
            name: "snapcast-source", placeholder: "pipe://FIFO?sampleformat=RATE:16:CHANNELS",
            defaultText: "pipe:///tmp/snapfifo?sampleformat=48000:16:2",
            meaning: ["With output = snapcast: the snapserver stream's source, as in snapserver.conf",
                      "(source = pipe://…). Aubade writes 16-bit PCM in its sampleformat (converting",
                      "each track's rate and channels), paced in real time; name, codec and",
                      "controlscript are the server's and ignored here."],
            apply: { settings, value, _ throws(ValueError) in settings.snapcastSource = try SnapcastSource.parse(value) },
            takesEffect: .restart,
            value: { settings in settings.snapcastSource.uri }),
        ConfigurationKey(
            name: "snapcast-buffer", placeholder: "MILLISECONDS", defaultText: "1000",
            meaning: ["The snapserver's buffer ([stream] buffer in snapserver.conf, 20 to 10000): how",
                      "long after the server reads the music the rooms play it, so Position and the",
                      "titles follow what the rooms hear."],
            apply: { settings, value, _ throws(ValueError) in
                settings.snapcastBuffer = try ValueError.number(value, in: Settings.snapcastBufferRange,
                                                                expected: "a number of milliseconds from 20 to 10000")
            },
            takesEffect: .restart,
            value: { settings in "\(settings.snapcastBuffer)" }),
        ConfigurationKey(
            name: "snapcast-control", placeholder: "HOST:PORT|none", defaultText: "127.0.0.1:1705",
            meaning: ["With output = snapcast: the snapserver's JSON-RPC control port ([tcp] in",
                      "snapserver.conf), through which the page shows the rooms that play Aubade's",
                      "stream and sets each one's volume and mute, as Snapweb does; none: no rooms."],
            apply: { settings, value, _ throws(ValueError) in settings.snapcastControl = try SnapcastControlAddress.parse(value) },
            takesEffect: .restart,
            value: { settings in settings.snapcastControl?.text ?? "none" }),
    ] + mpdKeys + webKeys

    static func named(_ name: String) -> ConfigurationKey? {
        all.first { $0.name == name }
    }
}

/// Why a value is bad, without the location (the caller adds file, line and key).
struct ValueError: Error {
    var expected: String

    static func boolean(_ value: String) throws(ValueError) -> Bool {
        switch value.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw ValueError(expected: "true or false (or yes/no, on/off)")
        }
    }

    static func number(_ value: String, in range: ClosedRange<Double>, expected: String) throws(ValueError) -> Double {
        guard let number = Double(value), number.isFinite, range.contains(number) else {
            throw ValueError(expected: expected)
        }
        return number
    }

    static func category(_ value: String) throws(ValueError) -> SessionCategory {
        guard let category = SessionCategory(rawValue: value) else { throw ValueError(expected: "playback or mixWithOthers") }
        return category
    }

    static func logLevel(_ value: String) throws(ValueError) -> LogLevel {
        guard let level = LogLevel(rawValue: value.lowercased()) else {
            throw ValueError(expected: "debug, info, notice, warning or error")
        }
        return level
    }
}

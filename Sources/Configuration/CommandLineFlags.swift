import PlayerCore

/// The flags of `aubade serve` that override the configuration file, and its operands (PATHs).
///
///     --config FILE                  read FILE instead of $XDG_CONFIG_HOME/aubade/aubade.conf
///     --music-folder DIR             (repeatable) replaces the file's music-folder lines
///     --playlists-folder DIR
///     --volume V                     0…1.5
///     --resume-on-reconnect / --no-resume-on-reconnect
///     --guard-other-players / --no-guard-other-players
///     --log-level LEVEL
///     --replaygain off|track|album|auto
///     --mpd-address ADDRESS|any|none, --mpd-port PORT
///     --http-address ADDRESS|any|none, --http-port PORT
///     --help, -h                     sets `help`; the caller prints the usage
///     --                             everything after it is a PATH
///
/// `--flag VALUE` and `--flag=VALUE` are both accepted. Relative paths are relative to the
/// working folder; `~` and `$HOME` are expanded (useful in `--flag=~/x`, which no shell expands).
public struct ServeFlags: Sendable, Equatable {
    public var configFile: String?
    public var musicFolders: [String] = []
    public var playlistsFolder: String?
    public var volume: Double?
    public var resumeOnReconnect: Bool?
    public var guardOtherPlayers: Bool?
    public var logLevel: LogLevel?
    public var category: SessionCategory?
    public var handBackDelay: Double?
    public var replayGain: ReplayGainMode?
    public var mpdAddress: String??
    public var mpdPort: Int?
    public var httpAddress: String??
    public var httpPort: Int?
    public var help = false
    /// Everything that is not a flag: the PATHs to play.
    public var operands: [String] = []

    public init() {}

    /// Parses `aubade serve`'s arguments (without "serve"). Throws a `.usage` error naming the
    /// flag for an unknown flag, a missing value or a bad one.
    public static func parse(_ arguments: [String],
                             environment: [String: String] = Environment.current(),
                             workingDirectory: String? = Environment.currentDirectory()) throws(ConfigurationError) -> ServeFlags {
        let paths = PathExpansion(home: Environment.home(environment), workingDirectory: workingDirectory ?? "/")
        var flags = ServeFlags()
        var index = 0
        func usage(_ flag: String, _ message: String) -> ConfigurationError {
            ConfigurationError(kind: .usage, file: nil, line: nil, key: flag, message: message)
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if argument == "--" {
                flags.operands += arguments[index...]
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                flags.operands.append(argument)
                continue
            }
            var name = argument
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            func value() throws(ConfigurationError) -> String {
                if let inlineValue { return inlineValue }
                guard index < arguments.count else { throw usage(name, "\(name) needs a value") }
                index += 1
                return arguments[index - 1]
            }
            func checked<T>(_ raw: String, _ read: (String) throws(ValueError) -> T) throws(ConfigurationError) -> T {
                do { return try read(raw) } catch {
                    throw usage(name, "\(name): bad value \"\(raw)\" (expected \(error.expected))")
                }
            }
            func noValue() throws(ConfigurationError) {
                if inlineValue != nil { throw usage(name, "\(name) takes no value") }
            }
            switch name {
            case "--help", "-h":
                try noValue()
                flags.help = true
            case "--config":
                let raw = try value()
                flags.configFile = try checked(raw) { (raw) throws(ValueError) in try paths.absolute(raw) }
            case "--music-folder":
                let raw = try value()
                flags.musicFolders.append(try checked(raw) { (raw) throws(ValueError) in try paths.absolute(raw) })
            case "--playlists-folder":
                let raw = try value()
                flags.playlistsFolder = try checked(raw) { (raw) throws(ValueError) in try paths.absolute(raw) }
            case "--volume":
                let raw = try value()
                flags.volume = try checked(raw) { (raw) throws(ValueError) in
                    try ValueError.number(raw, in: Settings.volumeRange, expected: "a number from 0 to 1.5 (1 = 100 %)")
                }
            case "--resume-on-reconnect":
                try noValue()
                flags.resumeOnReconnect = true
            case "--no-resume-on-reconnect":
                try noValue()
                flags.resumeOnReconnect = false
            case "--guard-other-players":
                try noValue()
                flags.guardOtherPlayers = true
            case "--no-guard-other-players":
                try noValue()
                flags.guardOtherPlayers = false
            case "--log-level":
                let raw = try value()
                flags.logLevel = try checked(raw) { (raw) throws(ValueError) in try ValueError.logLevel(raw) }
            case "--category":
                let raw = try value()
                flags.category = try checked(raw) { (raw) throws(ValueError) in try ValueError.category(raw) }
            case "--hand-back-delay":
                let raw = try value()
                flags.handBackDelay = try checked(raw) { (raw) throws(ValueError) in
                    try ValueError.number(raw, in: Settings.handBackDelayRange, expected: "a number of seconds from 0 to 3600")
                }
            case "--replaygain":
                let raw = try value()
                flags.replayGain = try checked(raw) { (raw) throws(ValueError) in
                    guard let mode = ReplayGainMode(rawValue: raw.lowercased()) else { throw ValueError(expected: "off, track, album or auto") }
                    return mode
                }
            case "--mpd-address":
                let raw = try value()
                flags.mpdAddress = .some(try checked(raw) { (raw) throws(ValueError) in try ValueError.mpdAddress(raw) })
            case "--mpd-port":
                flags.mpdPort = try checked(try value(), ValueError.port)
            case "--http-address":
                let raw = try value()
                flags.httpAddress = .some(try checked(raw) { (raw) throws(ValueError) in try ValueError.mpdAddress(raw) })
            case "--http-port":
                flags.httpPort = try checked(try value(), ValueError.port)
            default:
                throw usage(name, "unknown option \"\(name)\"")
            }
        }
        return flags
    }
}

extension Settings {
    /// These settings with the flags on top: each flag given replaces its key; `--music-folder`
    /// flags replace all the file's `music-folder` lines. `--config` and the operands are not
    /// settings (see `load(commandLine:)`).
    public func applying(flags: ServeFlags) -> Settings {
        var settings = self
        if !flags.musicFolders.isEmpty { settings.musicFolders = flags.musicFolders }
        if let folder = flags.playlistsFolder { settings.playlistsFolder = folder }
        if let volume = flags.volume { settings.initialVolume = volume }
        if let resume = flags.resumeOnReconnect { settings.resumeOnReconnect = resume }
        if let guarding = flags.guardOtherPlayers { settings.guardOtherPlayers = guarding }
        if let level = flags.logLevel { settings.logLevel = level }
        if let category = flags.category { settings.category = category }
        if let delay = flags.handBackDelay { settings.handBackDelay = delay }
        if let mode = flags.replayGain { settings.replayGain = mode }
        if let address = flags.mpdAddress { settings.mpdAddress = address }
        if let port = flags.mpdPort { settings.mpdPort = port }
        if let address = flags.httpAddress { settings.httpAddress = address }
        if let port = flags.httpPort { settings.httpPort = port }
        return settings
    }

    /// Parses the flags (`ServeFlags.parse`) and applies them over these settings.
    public func applying(flags arguments: [String],
                         environment: [String: String] = Environment.current(),
                         workingDirectory: String? = Environment.currentDirectory()) throws(ConfigurationError) -> Settings {
        applying(flags: try ServeFlags.parse(arguments, environment: environment, workingDirectory: workingDirectory))
    }

    /// All of `aubade serve`'s set-up in one call: parse the flags, read the file (--config FILE,
    /// which must exist, else the default path, which may be missing), apply the flags over it.
    /// Returns the settings, the parsed flags (for `help` and the PATHs to play) and the file read.
    public static func load(commandLine arguments: [String],
                            environment: [String: String] = Environment.current(),
                            workingDirectory: String? = Environment.currentDirectory())
        throws(ConfigurationError) -> (settings: Settings, flags: ServeFlags, file: String) {
        let flags = try ServeFlags.parse(arguments, environment: environment, workingDirectory: workingDirectory)
        let file = flags.configFile ?? defaultPath(environment: environment)
        let settings = try load(from: file, mustExist: flags.configFile != nil, environment: environment)
        return (settings.applying(flags: flags), flags, file)
    }
}

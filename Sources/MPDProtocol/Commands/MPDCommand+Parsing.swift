import PlayerCore

/// From a request to a command: the table's checks, then each command's arguments, in the order
/// mpd's handler reads them (so a request with two bad arguments fails on the one mpd names).
extension MPDCommand {
    /// The largest `binarylimit`: mpd's output buffer (8 MiB + 16 KiB) less 4 KiB, as measured on
    /// mpd 0.23.12 (8400896 is accepted, 8400897 is "Number too large").
    public static let binaryLimitMaximum = 8_400_896

    /// The command a request asks for, if the table knows it, the client may run it and its
    /// arguments are good; otherwise the ACK to send, naming the command when it is known.
    public init(_ request: MPDRequest, permissions: MPDPermissions) throws(MPDError) {
        let spec = try CommandTable.check(request, permissions: permissions)
        do {
            self = try Self.parseArguments(of: spec.name, ArraySlice(request.arguments))
        } catch {
            throw error.withCommand(spec.name)
        }
    }

    /// Tokenize, look up, check and parse one line.
    public static func parse(_ line: RequestLine, permissions: MPDPermissions) throws(MPDError) -> MPDCommand {
        try MPDCommand(line.request(), permissions: permissions)
    }

    private static func parseArguments(of name: String, _ arguments: ArraySlice<String>) throws(MPDError) -> MPDCommand {
        if let command = try connectionCommand(name, arguments) { return command }
        if let command = try playbackCommand(name, arguments) { return command }
        if let command = try queueCommand(name, arguments) { return command }
        if let command = try libraryCommand(name, arguments) { return command }
        if let command = try storedPlaylistCommand(name, arguments) { return command }
        // Every name in CommandTable has a parser above; a test walks the table to keep it so.
        fatalError("no parser for the command \"\(name)\" of the table")
    }

    private static func connectionCommand(_ name: String, _ a: ArraySlice<String>) throws(MPDError) -> MPDCommand? {
        switch name {
        case "close": return .close
        case "kill": return .kill
        case "ping": return .ping
        case "commands": return .commands
        case "notcommands": return .notCommands
        case "password": return .password(a[0])
        case "binarylimit":
            let limit = try ArgumentParser.unsigned(a[0], maximum: UInt64(binaryLimitMaximum))
            guard limit >= 64 else { throw MPDError(.argument, "Value too small") }
            return .binaryLimit(limit)
        case "tagtypes": return .tagTypes(try tagTypesRequest(a))
        case "idle":
            var subsystems: IdleSubsystems = []
            for argument in a {
                guard let subsystem = IdleSubsystems(name: argument) else {
                    throw MPDError(.argument, "Unrecognized idle event: \(argument)")
                }
                subsystems.insert(subsystem)
            }
            return .idle(subsystems.isEmpty ? .all : subsystems)
        case "status": return .status
        case "stats": return .stats
        case "currentsong": return .currentSong
        case "getvol": return .getVolume
        case "replay_gain_status": return .replayGainStatus
        case "outputs": return .outputs
        case "enableoutput": return .enableOutput(try ArgumentParser.unsigned(a[0]))
        case "disableoutput": return .disableOutput(try ArgumentParser.unsigned(a[0]))
        case "toggleoutput": return .toggleOutput(try ArgumentParser.unsigned(a[0]))
        case "listpartitions": return .listPartitions
        case "urlhandlers": return .urlHandlers
        case "decoders": return .decoders
        default: return nil
        }
    }

    /// mpd's `handle_tagtypes`: sub-commands are exact, tag names any case.
    private static func tagTypesRequest(_ a: ArraySlice<String>) throws(MPDError) -> TagTypesRequest {
        guard let subcommand = a.first else { return .list }
        let names = a.dropFirst()
        switch subcommand {
        case "all", "clear":
            guard names.isEmpty else { throw MPDError(.argument, "Too many arguments") }
            return subcommand == "all" ? .all : .clear
        case "enable", "disable":
            guard !names.isEmpty else { throw MPDError(.argument, "Not enough arguments") }
            var kinds = Set<TagKind>()
            for name in names {
                guard let kind = TagKind(mpdName: name) else { throw MPDError(.argument, "Unknown tag type") }
                kinds.insert(kind)
            }
            return subcommand == "enable" ? .enable(kinds) : .disable(kinds)
        default:
            throw MPDError(.argument, "Unknown sub command")
        }
    }

    private static func playbackCommand(_ name: String, _ a: ArraySlice<String>) throws(MPDError) -> MPDCommand? {
        switch name {
        case "play":
            guard let text = a.first else { return .play(position: nil) }
            let position = try ArgumentParser.int(text)
            return .play(position: position == -1 ? nil : position)
        case "playid":
            guard let text = a.first else { return .playID(nil) }
            let id = try ArgumentParser.int(text)
            return .playID(id == -1 ? nil : id)
        case "pause":
            guard let text = a.first else { return .pause(nil) }
            return .pause(try ArgumentParser.bool(text))
        case "stop": return .stop
        case "next": return .next
        case "previous": return .previous
        case "seek": return .seek(position: try ArgumentParser.unsigned(a[0]), to: try ArgumentParser.songTime(a[1]))
        case "seekid": return .seekID(try ArgumentParser.unsigned(a[0]), to: try ArgumentParser.songTime(a[1]))
        case "seekcur": return .seekCurrent(try SeekTarget.parse(a[0]))
        case "repeat": return .setRepeat(try ArgumentParser.bool(a[0]))
        case "random": return .setRandom(try ArgumentParser.bool(a[0]))
        case "single": return .setSingle(try SingleMode.parse(a[0]))
        case "consume": return .setConsume(try ArgumentParser.bool(a[0]))
        case "crossfade": return .setCrossfade(seconds: try ArgumentParser.unsigned(a[0]))
        case "replay_gain_mode":
            guard let mode = ReplayGainMode(rawValue: a[0]) else {
                throw MPDError(.argument, "Unrecognized replay gain mode")
            }
            return .setReplayGainMode(mode)
        case "setvol": return .setVolume(try ArgumentParser.unsigned(a[0], maximum: 100))
        case "volume": return .changeVolume(by: try ArgumentParser.int(a[0], minimum: -100, maximum: 100))
        default: return nil
        }
    }
}


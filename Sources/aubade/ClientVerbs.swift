import DBusKit
import Glibc
import MPRIS
import PlayerCore

/// The verbs that talk to a running daemon over the session bus. Each validates its
/// arguments before connecting; exit codes 0 ok, 1 failure, 64 usage.
enum ClientVerbs {
    static let names = ["status", "route", "queue", "add", "remove", "clear", "save", "playlists", "load"]

    static func run(_ verb: String, _ arguments: [String]) -> Int32 {
        if let problem = usageProblem(verb, arguments) {
            CommandLineInterface.printError("aubade \(verb): \(problem)")
            return 64
        }
        do throws(DBusError) {
            let client = try DaemonClient()
            switch verb {
            case "status": try arguments == ["--json"] ? statusJSON(client) : status(client)
            case "route": try arguments == ["--all"] ? routeAll(client) : route(client)
            case "queue": try queue(client)
            case "add": try add(client, arguments)
            case "remove": try remove(client, Int(arguments[0]) ?? 0)
            case "clear": _ = try client.call(QueueInterface.name, "Clear")
            case "save": _ = try client.call(QueueInterface.name, "SaveAsPlaylist", [.string(arguments[0])])
            case "playlists": try playlists(client)
            case "load": try load(client, arguments[0])
            default: return 64
            }
            return 0
        } catch {
            CommandLineInterface.printError("aubade \(verb): \(DaemonClient.explain(error))")
            return 1
        }
    }

    private static func usageProblem(_ verb: String, _ arguments: [String]) -> String? {
        switch verb {
        case "status":
            return arguments.isEmpty || arguments == ["--json"] ? nil : "takes only --json"
        case "route":
            return arguments.isEmpty || arguments == ["--all"] ? nil : "takes only --all"
        case "queue", "clear", "playlists":
            return arguments.isEmpty ? nil : "takes no arguments"
        case "add":
            return arguments.isEmpty ? "give one or more files, folders, playlists or station URLs" : nil
        case "remove":
            guard arguments.count == 1, let number = Int(arguments[0]), number >= 1 else {
                return "give the number of a queue entry (see `aubade queue`)"
            }
            return nil
        case "save", "load":
            guard arguments.count == 1, !arguments[0].isEmpty else { return "give a playlist name" }
            return nil
        default:
            return "unknown verb"
        }
    }

    private static func status(_ client: DaemonClient) throws(DBusError) {
        let player = try client.properties(MPRISNames.playerInterface)
        let metadata = player["Metadata"]?.asVardict ?? [:]
        let state = player["PlaybackStatus"]?.asString ?? "?"
        let reason = (try? client.property(MPRISNames.audioSessionInterface, "PauseReason").asString) ?? nil
        defer {
            if state == "Paused", let reason, let text = PauseReasonText.describe(reason) { print("paused \(text)") }
        }
        guard let title = metadata["xesam:title"]?.asString else {
            print("\(state) — nothing queued")
            return
        }
        let artist = metadata["xesam:artist"]?.asStringArray?.joined(separator: ", ")
        print(artist.map { "\(title) — \($0)" } ?? title)
        let position = player["Position"]?.asInt64 ?? 0
        let length = metadata["mpris:length"]?.asInt64
        print("\(state)  \(TimeText.clock(position))\(length.map { " / " + TimeText.clock($0) } ?? "")"
              + "  loop \(player["LoopStatus"]?.asString ?? "?"), shuffle \(player["Shuffle"]?.asBool == true ? "on" : "off")"
              + ", volume \(Int(((player["Volume"]?.asDouble ?? 0) * 100).rounded())) %")
        if let route = try? client.property(MPRISNames.audioSessionInterface, "CurrentRoute").asVardict, !route.isEmpty {
            print("route  \(RouteText.describe(route))")
        }
        if let stream = try? client.property(MPRISNames.audioSessionInterface, "Stream").asVardict,
           let summary = stream["summary"]?.asString {
            print("stream \(metadata["xesam:url"]?.asString ?? "?"): \(summary)")
        }
        if let gain = try? client.property(MPRISNames.audioSessionInterface, "ReplayGain").asVardict,
           let line = ReplayGainText.describe(gain) {
            print("replaygain \(line)")
        }
    }

    private static func statusJSON(_ client: DaemonClient) throws(DBusError) {
        let player = try client.properties(MPRISNames.playerInterface)
        let route = (try? client.property(MPRISNames.audioSessionInterface, "CurrentRoute").asVardict) ?? nil
        var report = StatusReport(player: player, route: route)
        report.pauseReason = (try? client.property(MPRISNames.audioSessionInterface, "PauseReason").asString) ?? nil
        let stream = (try? client.property(MPRISNames.audioSessionInterface, "Stream").asVardict) ?? nil
        report.stream = stream.flatMap { fields in
            let strings = fields.compactMapValues { $0.asString ?? $0.asInt32.map(String.init) }
            return strings.isEmpty ? nil : strings
        }
        if let gain = (try? client.property(MPRISNames.audioSessionInterface, "ReplayGain").asVardict) ?? nil {
            report.replayGain = StatusReport.ReplayGain(fields: gain)
        }
        print(report.json)
    }

    private static func route(_ client: DaemonClient) throws(DBusError) {
        guard let fields = try client.property(MPRISNames.audioSessionInterface, "CurrentRoute").asVardict, !fields.isEmpty else {
            print("no route: the sound server has no output")
            return
        }
        print(RouteText.describe(fields))
    }

    /// Our route (if aubade serve runs), then every other stream and the player it belongs to,
    /// from whoever guards the other players (serve or `aubade guard`).
    private static func routeAll(_ client: DaemonClient) throws(DBusError) {
        if client.hasOwner(MPRISNames.busName) {
            try route(client)
        } else {
            print("aubade serve is not running")
        }
        // Before an error on stderr: the lines stay in the order they were written.
        fflush(nil)
        guard client.hasOwner(GuardObject.busName) else {
            throw DBusError.failed("nothing guards the other players: start `aubade guard`, or `aubade serve` "
                                   + "with guard-other-players = true")
        }
        let streams = try client.call(destination: GuardObject.busName, path: GuardObject.objectPath, GuardObject.interface,
                                      GuardWire.streamsMethod).first?.asArray ?? []
        guard !streams.isEmpty else { return print("no other playback streams") }
        for stream in streams {
            print(OtherStreamText.describe(stream.asVardict ?? [:]))
        }
    }

    private static func trackIDs(_ client: DaemonClient) throws(DBusError) -> [String] {
        try client.property(MPRISNames.trackListInterface, "Tracks").asObjectPathArray ?? []
    }

    private static func queue(_ client: DaemonClient) throws(DBusError) {
        let ids = try trackIDs(client)
        guard !ids.isEmpty else {
            print("the queue is empty")
            return
        }
        let current = try client.property(MPRISNames.playerInterface, "Metadata").asVardict?["mpris:trackid"]?.asObjectPath
        let metadata = try client.call(MPRISNames.trackListInterface, "GetTracksMetadata", [.objectPathArray(ids)]).first?.asArray ?? []
        let width = String(ids.count).count
        for (number, fields) in metadata.enumerated() {
            let fields = fields.asVardict ?? [:]
            let marker = fields["mpris:trackid"]?.asObjectPath == current ? "▶" : " "
            let title = fields["xesam:title"]?.asString ?? "?"
            let artist = fields["xesam:artist"]?.asStringArray?.first.map { " — \($0)" } ?? ""
            let length = fields["mpris:length"]?.asInt64.map { "  (\(TimeText.clock($0)))" } ?? ""
            let label = String(number + 1)
            print("\(marker) \(String(repeating: " ", count: width - label.count))\(label)  \(title)\(artist)\(length)")
        }
    }

    private static func add(_ client: DaemonClient, _ paths: [String]) throws(DBusError) {
        for path in paths {
            let uri: String
            if StreamURL.isStreamAddress(path) {
                uri = path  // a station: the daemon checks the address
            } else {
                // As bytes: a Latin-1 file name must reach the daemon as %E9, not as U+FFFD.
                let absolute = RawArguments.path(for: path).resolved(against: RawArguments.currentDirectory())
                uri = FileURI.uri(for: absolute)
            }
            let after = try trackIDs(client).last ?? TrackPath.noTrack
            _ = try client.call(MPRISNames.trackListInterface, "AddTrack", [.string(uri), .objectPath(after), .boolean(false)])
        }
    }

    private static func remove(_ client: DaemonClient, _ number: Int) throws(DBusError) {
        let ids = try trackIDs(client)
        guard ids.indices.contains(number - 1) else {
            throw DBusError.failed("there is no entry \(number): the queue has \(ids.count)")
        }
        _ = try client.call(MPRISNames.trackListInterface, "RemoveTrack", [.objectPath(ids[number - 1])])
    }

    private static func playlistList(_ client: DaemonClient) throws(DBusError) -> [(path: String, name: String)] {
        let reply = try client.call(MPRISNames.playlistsInterface, "GetPlaylists",
                                    [.uint32(0), .uint32(UInt32.max), .string("Alphabetical"), .boolean(false)])
        return (reply.first?.asArray ?? []).compactMap { value in
            guard let fields = value.asStructure, fields.count == 3, let path = fields[0].asObjectPath,
                  let name = fields[1].asString else { return nil }
            return (path, name)
        }
    }

    private static func playlists(_ client: DaemonClient) throws(DBusError) {
        let list = try playlistList(client)
        if list.isEmpty { print("no playlists (save one with `aubade save NAME`)") }
        for playlist in list { print(playlist.name) }
    }

    private static func load(_ client: DaemonClient, _ name: String) throws(DBusError) {
        guard let playlist = try playlistList(client).first(where: { $0.name == name }) else {
            throw DBusError.failed("no playlist named \"\(name)\" (see `aubade playlists`)")
        }
        _ = try client.call(MPRISNames.playlistsInterface, "ActivatePlaylist", [.objectPath(playlist.path)])
    }
}

/// "3:07", "1:02:03".
enum TimeText {
    static func clock(_ microseconds: Int64) -> String {
        let total = max(0, microseconds / 1_000_000)
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let twoDigits = { (value: Int64) in value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(twoDigits(minutes)):\(twoDigits(seconds))" : "\(minutes):\(twoDigits(seconds))"
    }
}

/// Routes as one line for people: "headphones — Headphones (sink headphones, port analog-output-headphones)".
enum RouteText {
    static func describe(_ fields: [String: DBusValue]) -> String {
        let type = fields["portType"]?.asString ?? "unknown"
        let description = fields["description"]?.asString ?? "?"
        var details = ["sink \(fields["sinkName"]?.asString ?? "?")"]
        if let port = fields["portName"]?.asString { details.append("port \(port)") }
        if let bus = fields["bus"]?.asString { details.append("bus \(bus)") }
        if let profile = fields["bluetoothProfile"]?.asString { details.append("profile \(profile)") }
        return "\(type) — \(description) (\(details.joined(separator: ", ")))"
    }
}

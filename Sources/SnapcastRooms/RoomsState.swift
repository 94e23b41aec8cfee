public import JSON

/// One room: a snapclient as snapserver describes it.
public struct SnapcastRoom: Sendable, Equatable {
    /// snapserver's id of the client (its host ID: a MAC address, or `--hostID`).
    public var id: String
    /// Its name in snapserver (`config.name`), else its host's name, else its id.
    public var name: String
    /// 0…100, as snapserver counts.
    public var percent: Int
    public var muted: Bool
    public var connected: Bool

    public init(id: String, name: String, percent: Int, muted: Bool, connected: Bool) {
        self.id = id
        self.name = name
        self.percent = percent
        self.muted = muted
        self.connected = connected
    }
}

/// One line from snapserver's control port, read (JSON-RPC 2.0: a response or a notification).
public enum SnapcastMessage: Sendable, Equatable {
    case result(id: Int64, JSONValue)
    case error(id: Int64?, String)
    case notification(method: String, params: JSONValue)
}

/// The rooms as snapserver's control port describes them, kept from `Server.GetStatus` and the
/// notifications: pure, so every hostile line is a table test (RoomsStateTests). Which rooms:
/// the clients of the groups that play the stream Aubade feeds (the stream whose `pipe://` path
/// is `streamPath`): a client switched to another stream (a radio of snapserver's own) no longer
/// hears Aubade, and its volume is not Aubade's to show. When no stream has that path (a server
/// on another machine, whose path for the pipe differs, or none given), every client.
public struct RoomsState: Sendable {
    /// Rooms kept at most; the others are left out (and said so).
    public static let maximumRooms = 256
    /// Ids and names longer than this many characters: a name is cut, a client with such an id
    /// left out (it could not be named back to the server as read).
    public static let maximumTextLength = 256

    /// What a line changed.
    public enum Outcome: Sendable, Equatable {
        case unchanged
        case changed
        /// Something that only a new `Server.GetStatus` can tell (a new client, a group's stream).
        case needsStatus
    }

    public let streamPath: String?
    /// Sorted by name, then id.
    public private(set) var rooms: [SnapcastRoom] = []
    /// The stream whose clients are the rooms; nil: every client (no stream was Aubade's).
    public private(set) var streamID: String?
    /// What the last status left out, in words (nil: nothing).
    public private(set) var leftOut: String?

    public init(streamPath: String?) {
        self.streamPath = streamPath
    }

    // MARK: Lines

    /// Reads one line: a JSON object with an integer `id` and a `result` or an `error`, or a
    /// `method` and its `params`. Throws what is wrong with it, in words (no text of the line
    /// beyond the method's name, cut).
    public static func message(_ line: [UInt8]) throws(RoomsProblem) -> SnapcastMessage {
        let value: JSONValue
        do throws(JSONText.ParseError) {
            value = try JSONText.parse(line)
        } catch {
            throw RoomsProblem("a line that is not JSON (\(error), \(line.count) bytes)")
        }
        guard value.isObject else { throw RoomsProblem("a line that is not a JSON object") }
        if let method = value["method"] {
            guard let name = method.string else { throw RoomsProblem("a notification whose method is not a string") }
            return .notification(method: String(name.prefix(64)), params: value["params"] ?? .null)
        }
        let id: Int64?
        switch value["id"] {
        case .integer(let number)?: id = number
        case .null?, nil: id = nil
        default: throw RoomsProblem("a response whose id is not an integer")
        }
        if let error = value["error"] {
            let message = error["message"]?.string ?? "no message"
            return .error(id: id, String(message.prefix(200)))
        }
        guard let id, let result = value["result"] else { throw RoomsProblem("a response with neither result nor error") }
        return .result(id: id, result)
    }

    /// A request line (with its newline).
    public static func request(id: Int64, method: String, params: JSONValue? = nil) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [("id", .integer(id)), ("jsonrpc", "2.0"), ("method", .string(method))]
        if let params { members.append(("params", params)) }
        return Array((JSONText.write(.object(members)) + "\r\n").utf8)
    }

    /// `Client.SetVolume`'s params: both the percent and the mute, the room's own for what is
    /// not changed (snapserver 0.26 keeps what is missing, older ones do not).
    public func setVolumeParams(id: String, percent: Int?, muted: Bool?) -> JSONValue? {
        guard let room = rooms.first(where: { $0.id == id }) else { return nil }
        let percent = min(max(percent ?? room.percent, 0), 100)
        return ["id": .string(id), "volume": ["muted": .bool(muted ?? room.muted), "percent": .integer(Int64(percent))]]
    }

    // MARK: State

    /// `Server.GetStatus`'s result (`{"server": {...}}`), or `Server.OnUpdate`'s params (the same).
    public mutating func applyStatus(_ result: JSONValue) throws(RoomsProblem) -> Outcome {
        guard let server = result["server"], server.isObject else { throw RoomsProblem("a status without a server object") }
        guard case .array(let groups)? = server["groups"] else { throw RoomsProblem("a status without a list of groups") }
        streamID = Self.streamID(in: server["streams"], path: streamPath)
        var found: [SnapcastRoom] = []
        var seen = Set<String>()
        var skipped = 0
        var over = 0
        for group in groups {
            guard group.isObject, case .array(let clients)? = group["clients"] else { skipped += 1; continue }
            if let streamID, group["stream_id"]?.string != streamID { continue }
            for client in clients {
                guard let room = Self.room(client), !seen.contains(room.id) else { skipped += 1; continue }
                guard found.count < Self.maximumRooms else { over += 1; continue }
                seen.insert(room.id)
                found.append(room)
            }
        }
        var words: [String] = []
        if skipped > 0 { words.append("\(skipped) malformed or repeated clients or groups") }
        if over > 0 { words.append("\(over) clients past the first \(Self.maximumRooms)") }
        leftOut = words.isEmpty ? nil : words.joined(separator: " and ")
        return replace(with: found)
    }

    /// A notification.
    public mutating func apply(notification method: String, params: JSONValue) throws(RoomsProblem) -> Outcome {
        switch method {
        case "Server.OnUpdate":
            return try applyStatus(params)
        case "Client.OnVolumeChanged":
            guard let id = params["id"]?.string else { throw RoomsProblem("\(method) without a client id") }
            return try applyVolume(id: id, params["volume"])
        case "Client.OnConnect":
            guard let client = params["client"], let room = Self.room(client) else { throw RoomsProblem("\(method) without a client") }
            guard let index = rooms.firstIndex(where: { $0.id == room.id }) else { return .needsStatus }
            return update(index) { $0 = room }
        case "Client.OnDisconnect":
            guard let id = params["id"]?.string ?? params["client"]?["id"]?.string else {
                throw RoomsProblem("\(method) without a client id")
            }
            guard let index = rooms.firstIndex(where: { $0.id == id }) else { return .unchanged }
            return update(index) { $0.connected = false }
        case "Client.OnNameChanged":
            guard let id = params["id"]?.string, let name = params["name"]?.string else {
                throw RoomsProblem("\(method) without a client id and name")
            }
            guard let index = rooms.firstIndex(where: { $0.id == id }) else { return .unchanged }
            return name.isEmpty ? .needsStatus : update(index) { $0.name = String(name.prefix(Self.maximumTextLength)) }
        case "Group.OnStreamChanged", "Stream.OnUpdate", "Client.OnDelete", "Server.OnDelete":
            // Which clients play Aubade's stream may have changed: asked again.
            return .needsStatus
        default:
            // Stream.OnProperties (Aubade's own, several a second), latencies, groups' names
            // and mutes: nothing of the rooms'.
            return .unchanged
        }
    }

    /// A client's `volume` object (`{"percent", "muted"}`), from `Client.OnVolumeChanged` or
    /// `Client.SetVolume`'s result.
    public mutating func applyVolume(id: String, _ volume: JSONValue?) throws(RoomsProblem) -> Outcome {
        guard let (percent, muted) = Self.volume(volume) else { throw RoomsProblem("a volume that is not {percent, muted}") }
        guard let index = rooms.firstIndex(where: { $0.id == id }) else { return .unchanged }
        return update(index) { room in
            if let percent { room.percent = percent }
            if let muted { room.muted = muted }
        }
    }

    /// The connection is gone: nothing is known until the next status.
    public mutating func forget() -> Outcome {
        streamID = nil
        leftOut = nil
        return replace(with: [])
    }

    // MARK: Reading

    private mutating func replace(with found: [SnapcastRoom]) -> Outcome {
        let sorted = found.sorted { ($0.name.lowercased(), $0.id) < ($1.name.lowercased(), $1.id) }
        guard sorted != rooms else { return .unchanged }
        rooms = sorted
        return .changed
    }

    private mutating func update(_ index: Int, _ change: (inout SnapcastRoom) -> Void) -> Outcome {
        var room = rooms[index]
        change(&room)
        guard room != rooms[index] else { return .unchanged }
        var all = rooms
        all[index] = room
        return replace(with: all)
    }

    /// The stream whose `uri.path` (or the path of its `uri.raw`) is `path`.
    static func streamID(in streams: JSONValue?, path: String?) -> String? {
        guard let path, case .array(let streams)? = streams else { return nil }
        for stream in streams {
            guard let id = stream["id"]?.string, let uri = stream["uri"] else { continue }
            let raw = uri["raw"]?.string.map { String($0.dropFirst("pipe://".count).prefix { $0 != "?" }) }
            if uri["path"]?.string == path || (uri["raw"]?.string?.hasPrefix("pipe://") == true && raw == path) { return id }
        }
        return nil
    }

    /// A client object as a room, or nil when it is not one (no string id, an id too long, a
    /// volume that is not one).
    static func room(_ client: JSONValue) -> SnapcastRoom? {
        guard let id = client["id"]?.string, !id.isEmpty, id.count <= maximumTextLength else { return nil }
        let config = client["config"]
        // No volume at all: snapserver's defaults (100, not muted); one that is no volume: none.
        guard let (percent, muted) = config?["volume"] == nil ? (nil, nil) : volume(config?["volume"]) else { return nil }
        let configName = config?["name"]?.string ?? ""
        let hostName = client["host"]?["name"]?.string ?? ""
        let name = !configName.isEmpty ? configName : !hostName.isEmpty ? hostName : id
        return SnapcastRoom(id: id, name: String(name.prefix(maximumTextLength)), percent: percent ?? 100,
                            muted: muted ?? false, connected: client["connected"]?.bool ?? false)
    }

    /// `{"percent": 0…100, "muted": bool}`, either missing; nil when it is not that (a percent
    /// that is no number, a mute that is no boolean). A percent out of range is brought in.
    static func volume(_ value: JSONValue?) -> (percent: Int?, muted: Bool?)? {
        guard let value, value.isObject else { return nil }
        var percent: Int?
        if let number = value["percent"] {
            guard let double = number.double, double.isFinite else { return nil }
            percent = Int(min(max(double, 0), 100).rounded())
        }
        var muted: Bool?
        if let flag = value["muted"] {
            guard let bool = flag.bool else { return nil }
            muted = bool
        }
        return (percent, muted)
    }
}

/// What was wrong with a line from snapserver, in words.
public struct RoomsProblem: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

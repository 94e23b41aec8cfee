import JSON

/// One room as the page shows it: a Snapcast client (with `output = snapcast`).
public struct RoomFacts: Sendable, Equatable {
    public var id: String
    public var name: String
    /// 0…1.
    public var volume: Double
    public var muted: Bool
    public var connected: Bool

    public init(id: String, name: String, volume: Double, muted: Bool, connected: Bool) {
        self.id = id
        self.name = name
        self.volume = volume
        self.muted = muted
        self.connected = connected
    }
}

/// Why a room's change was not made.
public enum RoomsControlError: Error, Sendable, Equatable {
    /// The rooms cannot be reached now (their server is away).
    case unavailable(String)
    /// Their server refused it or did not answer.
    case failed(String)
}

/// What the page may ask of the rooms, whoever keeps them (the daemon adapts its Snapcast
/// client to it), so that the front-end stays free of sockets and of Snapcast's protocol.
public protocol RoomsControl: AnyObject, Sendable {
    /// The rooms now; nil while they cannot be known (their server is away).
    var currentRooms: [RoomFacts]? { get }
    /// Sets a room's volume (0…1) and/or mute; `completion` once made (any thread).
    func setRoom(id: String, volume: Double?, muted: Bool?,
                 completion: @escaping @Sendable (Result<Void, RoomsControlError>) -> Void)
    /// `handler` is called with the rooms after each change, from any thread.
    func observeRooms(_ handler: @escaping @Sendable ([RoomFacts]?) -> Void)
}

extension WebFrontEnd {
    /// Gives the page its rooms (`GET /api/rooms`, `POST /api/rooms`, the `rooms` event).
    public func attachRooms(_ control: any RoomsControl) {
        control.observeRooms { [weak self] rooms in
            guard let self else { return }
            queue.async { [self] in
                guard rooms != self.rooms else { return }
                self.rooms = rooms
                broadcast("rooms", roomsDocument())
            }
        }
        queue.async { [self] in
            roomsControl = control
            rooms = control.currentRooms
        }
    }

    /// `{"available", "reachable", "items"}`: available with a control (output = snapcast),
    /// reachable while its server is.
    func roomsDocument() -> JSONValue {
        guard roomsControl != nil else { return ["available": false, "reachable": false, "items": []] }
        let items: [JSONValue] = (rooms ?? []).map { room in
            ["id": .string(room.id), "name": .string(room.name), "volume": .number(room.volume),
             "muted": .bool(room.muted), "connected": .bool(room.connected)]
        }
        return ["available": true, "reachable": .bool(rooms != nil), "items": .array(items)]
    }

    /// `POST /api/rooms {"id", "volume"?, "muted"?}`.
    func roomsRequest(_ body: JSONValue, reply: @escaping Reply) {
        guard let control = roomsControl else {
            return reply(WebReply.error(404, "no rooms here: they come with output = snapcast"))
        }
        guard let id = body["id"]?.string else { return reply(WebReply.error(400, "id is the room's id, a string")) }
        var volume: Double?
        if let value = body["volume"] {
            guard let number = value.double, number.isFinite, (0...1).contains(number) else {
                return reply(WebReply.error(400, "volume is a number from 0 to 1"))
            }
            volume = number
        }
        var muted: Bool?
        if let value = body["muted"] {
            guard let flag = value.bool else { return reply(WebReply.error(400, "muted is true or false")) }
            muted = flag
        }
        guard volume != nil || muted != nil else { return reply(WebReply.error(400, "give a volume, muted, or both")) }
        guard let rooms else { return reply(WebReply.error(503, "the rooms' server cannot be reached now")) }
        guard rooms.contains(where: { $0.id == id }) else { return reply(WebReply.error(404, "no such room")) }
        control.setRoom(id: id, volume: volume, muted: muted) { result in
            switch result {
            case .success: reply(WebReply.ok)
            case .failure(.unavailable(let why)): reply(WebReply.error(503, "the rooms' server cannot be reached now: \(why)"))
            case .failure(.failed(let why)): reply(WebReply.error(502, "the rooms' server did not make it: \(why)"))
            }
        }
    }
}

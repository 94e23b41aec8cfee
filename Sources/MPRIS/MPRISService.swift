public import DBusKit
public import FrontEnd
public import PlayerCore

/// Serves MPRIS 2.2 (root, Player, TrackList, Playlists) on `/org/mpris/MediaPlayer2`, and
/// Aubade's own interfaces (`org.aubade.AudioSession1`, `org.aubade.Queue1`) on
/// `/org/aubade/Player` — never on the MPRIS object, whose every signal clients read as MPRIS.
///
/// It only translates: a method call or property write becomes an `Event` for the host; the
/// host's turn ends with `announceChanges(from:to:)`, which sends one PropertiesChanged with
/// every property that differs — at the end of the turn, with no timer, so a listener hears
/// about a command within about a millisecond.
public final class MPRISService {
    private let connection: Connection
    private unowned let host: any PlayerHost
    /// The guard's stream map for AudioSession1.OtherStreams; nil when the guard is off (the
    /// method is then unknown).
    public var otherStreams: (() -> DBusValue)?
    /// The paths above the player, for introspection; the guard's object joins it.
    public let tree: ObjectTree

    public init(connection: Connection, host: any PlayerHost) throws(DBusError) {
        self.connection = connection
        self.host = host
        // Everything else (/, /org, …) only answers Introspect, so `busctl tree` can find us.
        tree = try ObjectTree(connection: connection)
        for object in [ServedObject.mpris, .aubade] {
            try connection.registerObject(path: object.path) { [weak self] message in
                self?.receive(message, on: object)
            }
            tree.add(object.path)
        }
    }

    /// Sends PropertiesChanged, one per interface, for every property that differs between
    /// the snapshots.
    public func announceChanges(from old: PlayerSnapshot, to new: PlayerSnapshot) {
        let changes = PlayerProperties.changes(from: old, to: new)
        if !changes.isEmpty {
            emit(member: "PropertiesChanged", interface: MPRISNames.propertiesInterface,
                 [.string(MPRISNames.playerInterface), .vardict(changes), .stringArray([])])
        }
        let sessionChanges = AudioSessionProperties.changes(from: old, to: new)
        if !sessionChanges.isEmpty {
            emit(member: "PropertiesChanged", interface: MPRISNames.propertiesInterface,
                 [.string(MPRISNames.audioSessionInterface), .vardict(sessionChanges), .stringArray([])])
        }
    }

    public func announceRouteChange(_ change: RouteChange) {
        emit(member: "RouteChanged", interface: MPRISNames.audioSessionInterface,
             [.string(change.reason.rawValue), AudioSessionProperties.routeValue(change.previous),
              AudioSessionProperties.routeValue(change.current)])
    }

    public func announceCategoryDecision(_ decision: String) {
        emit(member: "CategoryDecision", interface: MPRISNames.audioSessionInterface, [.string(decision)])
    }

    /// OtherPlayerDecision: what the guard did to another player.
    public func announceOtherPlayerDecision(_ decision: GuardDecision) {
        emit(member: GuardWire.decisionSignal, interface: MPRISNames.audioSessionInterface,
             GuardWire.decisionArguments(decision))
    }

    public func announceInterruptionBegan() {
        emit(member: "InterruptionBegan", interface: MPRISNames.audioSessionInterface, [])
    }

    public func announceInterruptionEnded(shouldResume: Bool) {
        emit(member: "InterruptionEnded", interface: MPRISNames.audioSessionInterface, [.boolean(shouldResume)])
    }

    /// Sends Seeked: the position jumped in a way clients could not extrapolate.
    public func announceSeeked(_ position: Microseconds) {
        emit(member: "Seeked", interface: MPRISNames.playerInterface, [.int64(position)])
    }

    /// Sends a signal from the object that carries `interface`.
    func emit(member: String, interface: String, _ arguments: [DBusValue]) {
        // PropertiesChanged names its interface in the first argument: it comes from that
        // interface's object.
        var carrier = ServedObject.carrying(interface)
        if interface == MPRISNames.propertiesInterface, case .string(let changed)? = arguments.first {
            carrier = ServedObject.carrying(changed)
        }
        do {
            let signal = try Message.signal(path: carrier.path, interface: interface,
                                            member: member, arguments: arguments)
            try connection.send(signal)
        } catch {
            // Only a broken connection gets here; the disconnect handler ends the daemon.
        }
    }

    // MARK: - Incoming calls

    private func receive(_ message: Message, on object: ServedObject) {
        guard message.kind == .methodCall, let member = message.member else { return }
        if message.interface.map(object.knownInterfaces.contains) ?? true { announceCommand(member, message) }
        // These load files: they answer later, so other calls are served meanwhile.
        switch (object, message.interface, member) {
        case (.mpris, MPRISNames.trackListInterface?, "AddTrack"), (.mpris, nil, "AddTrack"):
            addTrack(message) { [weak self] result in self?.reply(to: message, with: result) }
            return
        case (.mpris, MPRISNames.playerInterface?, "OpenUri"), (.mpris, nil, "OpenUri"):
            openUri(message) { [weak self] result in self?.reply(to: message, with: result) }
            return
        case (.mpris, MPRISNames.playlistsInterface?, "ActivatePlaylist"), (.mpris, nil, "ActivatePlaylist"):
            activatePlaylist(message) { [weak self] result in self?.reply(to: message, with: result) }
            return
        case (.aubade, QueueInterface.name?, "SaveAsPlaylist"), (.aubade, nil, "SaveAsPlaylist"):
            saveAsPlaylist(message) { [weak self] result in self?.reply(to: message, with: result) }
            return
        default:
            break
        }
        let result: Result<[DBusValue], DBusError>
        do {
            result = .success(try route(member: member, interface: message.interface, on: object, message))
        } catch {
            result = .failure(error)
        }
        reply(to: message, with: result)
    }

    private func route(member: String, interface: String?, on object: ServedObject,
                       _ message: Message) throws(DBusError) -> [DBusValue] {
        if let interface, !object.knownInterfaces.contains(interface) {
            throw .unknownInterface("no interface \(EchoText.safe(interface)) on \(object.path)")
        }
        switch interface {
        case MPRISNames.playerInterface?:
            return try callPlayer(member, message)
        case MPRISNames.rootInterface?:
            return try callRoot(member, message)
        case MPRISNames.propertiesInterface?:
            return try callProperties(member, on: object, message)
        case MPRISNames.introspectableInterface?:
            return try callIntrospectable(member, on: object, message)
        case MPRISNames.trackListInterface?:
            return try callTrackList(member, message)
        case MPRISNames.playlistsInterface?:
            return try callPlaylists(member, message)
        case MPRISNames.audioSessionInterface?:
            guard member == GuardWire.streamsMethod, let otherStreams else { throw unknownMethod(member, message) }
            try expect("", message)
            return [otherStreams()]
        case QueueInterface.name?:
            return try callQueue(member, message)
        case nil:
            // A call without an interface: the member name alone decides (it is unique on
            // each object).
            for candidate in object.knownInterfaces {
                if let result = try? route(member: member, interface: candidate, on: object, message) { return result }
            }
            throw .unknownMethod("no method \(EchoText.safe(member)) with signature \"\(EchoText.safe(message.signature))\"")
        case let other?:
            throw .unknownInterface("no interface \(EchoText.safe(other)) on \(object.path)")
        }
    }

    private func callIntrospectable(_ member: String, on object: ServedObject, _ message: Message) throws(DBusError) -> [DBusValue] {
        guard member == "Introspect" else { throw unknownMethod(member, message) }
        try expect("", message)
        return [.string(object == .mpris ? IntrospectionXML.mediaPlayer2 : IntrospectionXML.aubadePlayer)]
    }

    /// CommandReceived, for `aubade monitor`: every transport command and property write.
    /// Every argument is capped and escaped (`EchoText`): the signal goes to every listener,
    /// and a client must not be able to broadcast a megabyte or terminal escapes through us.
    private func announceCommand(_ member: String, _ message: Message) {
        let interface = message.interface
        var command: String
        switch interface {
        case MPRISNames.playerInterface?, MPRISNames.rootInterface?:
            command = member
        case MPRISNames.propertiesInterface? where member == "Set":
            guard let arguments = try? message.arguments(), arguments.count == 3,
                  case .string(let name) = arguments[1] else { return }
            command = "Set \(EchoText.safe(name)) \(Self.describe(arguments[2]))"
        case MPRISNames.trackListInterface?, MPRISNames.playlistsInterface?, QueueInterface.name?:
            guard member != "GetTracksMetadata", member != "GetPlaylists" else { return }
            command = member
        default:
            return
        }
        if ["Seek", "SetPosition", "OpenUri", "AddTrack", "RemoveTrack", "GoTo", "ActivatePlaylist"].contains(member),
           let arguments = try? message.arguments() {
            command += " " + arguments.map(Self.describe).joined(separator: " ")
        }
        emit(member: "CommandReceived", interface: MPRISNames.audioSessionInterface,
             [.string(command), .string(message.sender ?? "")])
    }

    private static func describe(_ value: DBusValue) -> String {
        switch value.unwrapped {
        case .string(let text), .objectPath(let text): return EchoText.safe(text)
        case .boolean(let on): return on ? "true" : "false"
        case .double(let number): return String(number)
        case .int64(let number): return String(number)
        default: return value.unwrapped.signature
        }
    }

    private func reply(to message: Message, with result: Result<[DBusValue], DBusError>) {
        guard message.expectsReply else { return }
        let reply: Message
        switch result {
        case .success(let values):
            do {
                reply = try message.makeReturn(values)
            } catch {
                reply = message.makeError(error)
            }
        case .failure(let error):
            // Error texts quote what the caller sent (a URI, a name): capped, so a huge
            // argument is not sent back whole (or twice).
            reply = message.makeError(DBusError(name: error.name,
                                                message: EchoText.safe(error.message, limit: Self.errorTextLimit)))
        }
        try? connection.send(reply)
    }

    // MARK: - Helpers shared by the interface files

    /// Error replies are cut after this many scalars (room for two quoted arguments of 200).
    static let errorTextLimit = 600

    /// Throws InvalidArgs unless the call's arguments have exactly this signature.
    func expect(_ signature: String, _ message: Message) throws(DBusError) {
        guard message.signature == signature else {
            throw .invalidArgs("expected arguments \"\(signature)\", got \"\(message.signature)\"")
        }
    }

    func unknownMethod(_ member: String, _ message: Message) -> DBusError {
        .unknownMethod("no method \(member) on \(message.interface ?? "any interface")")
    }

    var hostForExtensions: any PlayerHost { host }
}

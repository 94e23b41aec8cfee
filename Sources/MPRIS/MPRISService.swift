public import DBusKit
public import PlayerCore

/// Serves MPRIS 2.2 (root and Player) on `/org/mpris/MediaPlayer2`.
///
/// It only translates: a method call or property write becomes an `Event` for the host; the
/// host's turn ends with `announceChanges(from:to:)`, which sends one PropertiesChanged with
/// every property that differs — at the end of the turn, with no timer, so a listener hears
/// about a command within about a millisecond.
public final class MPRISService {
    private let connection: Connection
    private unowned let host: any MPRISHost

    public init(connection: Connection, host: any MPRISHost) throws(DBusError) {
        self.connection = connection
        self.host = host
        try connection.registerObject(path: MPRISNames.objectPath) { [weak self] message in
            self?.receive(message)
        }
        // Everything else (/, /org, …) only answers Introspect, so `busctl tree` can find us.
        try connection.registerObject(path: "/", subtree: true) { [weak self] message in
            self?.receiveElsewhere(message)
        }
    }

    /// Sends PropertiesChanged for every Player property that differs between the snapshots.
    public func announceChanges(from old: PlayerSnapshot, to new: PlayerSnapshot) {
        let changes = PlayerProperties.changes(from: old, to: new)
        guard !changes.isEmpty else { return }
        emit(member: "PropertiesChanged", interface: MPRISNames.propertiesInterface,
             [.string(MPRISNames.playerInterface), .vardict(changes), .stringArray([])])
    }

    /// Sends Seeked: the position jumped in a way clients could not extrapolate.
    public func announceSeeked(_ position: Microseconds) {
        emit(member: "Seeked", interface: MPRISNames.playerInterface, [.int64(position)])
    }

    private func emit(member: String, interface: String, _ arguments: [DBusValue]) {
        do {
            let signal = try Message.signal(path: MPRISNames.objectPath, interface: interface,
                                            member: member, arguments: arguments)
            try connection.send(signal)
        } catch {
            // Only a broken connection gets here; the disconnect handler ends the daemon.
        }
    }

    // MARK: - Incoming calls

    private func receive(_ message: Message) {
        guard message.kind == .methodCall, let member = message.member else { return }
        let result: Result<[DBusValue], DBusError>
        do {
            result = .success(try route(member: member, interface: message.interface, message))
        } catch {
            result = .failure(error)
        }
        reply(to: message, with: result)
    }

    private func route(member: String, interface: String?, _ message: Message) throws(DBusError) -> [DBusValue] {
        switch interface {
        case MPRISNames.playerInterface?:
            return try callPlayer(member, message)
        case MPRISNames.rootInterface?:
            return try callRoot(member, message)
        case MPRISNames.propertiesInterface?:
            return try callProperties(member, message)
        case MPRISNames.introspectableInterface?:
            return try callIntrospectable(member, message)
        case nil:
            // A call without an interface: the member name alone decides (it is unique here).
            for candidate in [MPRISNames.playerInterface, MPRISNames.rootInterface,
                              MPRISNames.propertiesInterface, MPRISNames.introspectableInterface] {
                if let result = try? route(member: member, interface: candidate, message) { return result }
            }
            throw .unknownMethod("no method \(member) with signature \"\(message.signature)\"")
        case let other?:
            throw .unknownInterface("no interface \(other) on \(MPRISNames.objectPath)")
        }
    }

    private func callIntrospectable(_ member: String, _ message: Message) throws(DBusError) -> [DBusValue] {
        guard member == "Introspect" else { throw unknownMethod(member, message) }
        try expect("", message)
        return [.string(IntrospectionXML.mediaPlayer2)]
    }

    private func receiveElsewhere(_ message: Message) {
        guard message.kind == .methodCall else { return }
        let path = message.path ?? "/"
        let result: Result<[DBusValue], DBusError>
        if message.member == "Introspect", message.interface == nil || message.interface == MPRISNames.introspectableInterface,
           let child = IntrospectionXML.childNode(under: path, toward: MPRISNames.objectPath) {
            result = .success([.string(IntrospectionXML.node(withChild: child))])
        } else {
            result = .failure(.unknownObject("no object at \(path)"))
        }
        reply(to: message, with: result)
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
            reply = message.makeError(error)
        }
        try? connection.send(reply)
    }

    // MARK: - Helpers shared by the interface files

    /// Throws InvalidArgs unless the call's arguments have exactly this signature.
    func expect(_ signature: String, _ message: Message) throws(DBusError) {
        guard message.signature == signature else {
            throw .invalidArgs("expected arguments \"\(signature)\", got \"\(message.signature)\"")
        }
    }

    func unknownMethod(_ member: String, _ message: Message) -> DBusError {
        .unknownMethod("no method \(member) on \(message.interface ?? "any interface")")
    }

    var hostForExtensions: any MPRISHost { host }
}

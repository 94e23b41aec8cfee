public import DBusKit
public import PlayerCore

/// `aubade guard`'s face on the bus: `/org/aubade/Guard` with `org.aubade.Guard1`, which holds
/// what AudioSession1 holds for the other players (the `OtherStreams` method and the
/// `OtherPlayerDecision` signal) and nothing of a player. Owned under `org.aubade.Guard`, never
/// an MPRIS name: the guard is not a player, and desktop shells must not show it as one.
public final class GuardObject {
    public static let busName = "org.aubade.Guard"
    public static let objectPath = "/org/aubade/Guard"
    public static let interface = "org.aubade.Guard1"

    private let connection: Connection
    private let streams: () -> DBusValue
    /// Kept: on `aubade guard`'s connection nothing else holds it.
    private let tree: ObjectTree

    /// - Parameter tree: the connection's `ObjectTree` (the player's on `aubade serve`), so
    ///   that a walk from `/` finds the guard too.
    public init(connection: Connection, tree: ObjectTree, streams: @escaping () -> DBusValue) throws(DBusError) {
        self.connection = connection
        self.streams = streams
        self.tree = tree
        try connection.registerObject(path: Self.objectPath) { [weak self] message in self?.receive(message) }
        tree.add(Self.objectPath)
    }

    public func announce(_ decision: GuardDecision) {
        guard let signal = try? Message.signal(path: Self.objectPath, interface: Self.interface,
                                               member: GuardWire.decisionSignal,
                                               arguments: GuardWire.decisionArguments(decision)) else { return }
        try? connection.send(signal)
    }

    private func receive(_ message: Message) {
        guard message.kind == .methodCall, let member = message.member else { return }
        let result: Result<[DBusValue], DBusError>
        switch (message.interface, member) {
        case (Self.interface?, GuardWire.streamsMethod), (nil, GuardWire.streamsMethod):
            result = message.signature.isEmpty ? .success([streams()])
                : .failure(.invalidArgs("\(GuardWire.streamsMethod) takes no arguments"))
        case (MPRISNames.introspectableInterface?, "Introspect"), (nil, "Introspect"):
            result = message.signature.isEmpty ? .success([.string(IntrospectionXML.guardObject)])
                : .failure(.invalidArgs("Introspect takes no arguments"))
        case (MPRISNames.propertiesInterface?, "GetAll"):
            // No properties; asked about any interface, the answer is empty (as for a node).
            result = message.signature == "s" ? .success([.vardict([])])
                : .failure(.invalidArgs("expected arguments \"s\", got \"\(EchoText.safe(message.signature))\""))
        case (let interface?, _) where interface != Self.interface && interface != MPRISNames.introspectableInterface
            && interface != MPRISNames.propertiesInterface:
            result = .failure(.unknownInterface("no interface \(EchoText.safe(interface)) on \(Self.objectPath)"))
        default:
            result = .failure(.unknownMethod("no method \(EchoText.safe(member)) with signature \"\(EchoText.safe(message.signature))\""))
        }
        guard message.expectsReply else { return }
        let reply: Message? = switch result {
        case .success(let values): try? message.makeReturn(values)
        case .failure(let error): message.makeError(error)
        }
        if let reply { try? connection.send(reply) }
    }
}

public import DBusKit
import Handoff

/// The paths above the objects a connection serves (`/`, `/org`, `/org/aubade` …): each
/// answers Introspect with its child nodes, so tools that walk the object tree from `/`
/// (busctl tree, d-feet, the bus fuzz test) find every object — the player and the guard on
/// `aubade serve`'s connection, the guard alone on `aubade guard`'s. Any other path is unknown.
///
/// One per connection: it takes the connection's fallback handler for `/`.
public final class ObjectTree: Sendable {
    private let connection: Connection
    private let served = LockedState<[String]>([])

    public init(connection: Connection) throws(DBusError) {
        self.connection = connection
        try connection.registerObject(path: "/", subtree: true) { [weak self] message in self?.receive(message) }
    }

    /// Adds an object with a handler of its own (registered on the connection by its owner).
    public func add(_ path: String) {
        served.withLock { if !$0.contains(path) { $0.append(path) } }
    }

    /// The names of `path`'s child nodes on the way to `targets`, sorted, each once; empty
    /// when `path` is above none of them.
    static func childNodes(under path: String, toward targets: [String]) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        let children = targets.compactMap { target -> String? in
            guard target.hasPrefix(prefix), target != path else { return nil }
            return target.dropFirst(prefix.count).split(separator: "/").first.map(String.init)
        }
        return Array(Set(children)).sorted()
    }

    private func receive(_ message: Message) {
        guard message.kind == .methodCall, message.expectsReply else { return }
        let path = message.path ?? "/"
        let children = Self.childNodes(under: path, toward: served.withLock { $0 })
        let result: Result<[DBusValue], DBusError>
        if message.member == "Introspect", message.interface == nil || message.interface == MPRISNames.introspectableInterface,
           !children.isEmpty {
            // Introspect takes no arguments; any are a wrong call, as on the objects themselves.
            result = message.signature.isEmpty
                ? .success([.string(IntrospectionXML.node(withChildren: children))])
                : .failure(.invalidArgs("expected arguments \"\", got \"\(EchoText.safe(message.signature))\""))
        } else {
            result = .failure(.unknownObject("no object at \(EchoText.safe(path))"))
        }
        let reply: Message? = switch result {
        case .success(let values): try? message.makeReturn(values)
        case .failure(let error): message.makeError(error)
        }
        if let reply { try? connection.send(reply) }
    }
}

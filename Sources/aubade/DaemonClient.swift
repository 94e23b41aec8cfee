import DBusKit
import Dispatch
import MPRIS

/// A blocking client of the running daemon, for the CLI verbs. The connection lives on its
/// own queue (DBusKit's rule); each call hops there and waits for the reply.
final class DaemonClient {
    private let queue = DispatchQueue(label: "aubade.client")
    private let connection: Connection

    init() throws(DBusError) {
        let queue = self.queue
        let result = queue.sync { () -> Result<Connection, DBusError> in
            do throws(DBusError) { return .success(try SessionBus.connect(queue: queue)) } catch { return .failure(error) }
        }
        connection = try result.get()
    }

    /// Calls a method of one of the player's interfaces, on the object that carries it (MPRIS's
    /// on `/org/mpris/MediaPlayer2`, Aubade's own on `/org/aubade/Player`), and returns the
    /// reply's arguments.
    func call(_ interface: String, _ member: String, _ arguments: [DBusValue] = [],
              timeoutMilliseconds: Int32 = 60_000) throws(DBusError) -> [DBusValue] {
        try call(destination: MPRISNames.busName, path: Self.path(of: interface), interface, member, arguments,
                 timeoutMilliseconds: timeoutMilliseconds)
    }

    /// The object of the player that carries `interface`.
    static func path(of interface: String) -> String {
        [MPRISNames.audioSessionInterface, QueueInterface.name].contains(interface)
            ? MPRISNames.aubadePlayerPath : MPRISNames.objectPath
    }

    /// Calls a method on any object (the guard's, the bus daemon's).
    func call(destination: String, path: String, _ interface: String, _ member: String, _ arguments: [DBusValue] = [],
              timeoutMilliseconds: Int32 = 60_000) throws(DBusError) -> [DBusValue] {
        let connection = self.connection
        let result = queue.sync { () -> Result<[DBusValue], DBusError> in
            do throws(DBusError) {
                let message = try Message.methodCall(destination: destination, path: path,
                                                     interface: interface, member: member, arguments: arguments)
                let reply = try connection.callBlocking(message, timeoutMilliseconds: timeoutMilliseconds)
                if let error = reply.carriedError { throw error }
                return .success(try reply.arguments())
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    func property(_ interface: String, _ name: String) throws(DBusError) -> DBusValue {
        guard let value = try call(destination: MPRISNames.busName, path: Self.path(of: interface),
                                   MPRISNames.propertiesInterface, "Get", [.string(interface), .string(name)]).first else {
            throw DBusError.failed("no value for \(name)")
        }
        return value.unwrapped
    }

    func properties(_ interface: String) throws(DBusError) -> [String: DBusValue] {
        try call(destination: MPRISNames.busName, path: Self.path(of: interface),
                 MPRISNames.propertiesInterface, "GetAll", [.string(interface)]).first?.asVardict ?? [:]
    }

    /// Whether someone owns `name` now (asking never starts a D-Bus-activated service).
    func hasOwner(_ name: String) -> Bool {
        let reply = try? call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus", "org.freedesktop.DBus",
                              "NameHasOwner", [.string(name)])
        return reply?.first?.asBool ?? false
    }

    /// Human words for the errors a CLI user meets.
    static func explain(_ error: DBusError) -> String {
        if error.name == "org.freedesktop.DBus.Error.ServiceUnknown" || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return "aubade is not running (start it with `aubade serve` or `systemctl --user start aubade`)"
        }
        return error.message
    }
}

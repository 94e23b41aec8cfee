import DBusKit
import Foundation

/// A method call's outcome: the reply's arguments, or the D-Bus error.
struct DBusReply: CustomStringConvertible {
    /// The reply's arguments; empty for an error or a reply without arguments.
    var values: [TypedBusValue]
    /// E.g. "org.freedesktop.DBus.Error.InvalidArgs" when the call failed with a D-Bus error.
    var errorName: String?
    /// The error's text, when it failed.
    var errorMessage: String?

    var succeeded: Bool { errorName == nil }
    var description: String {
        errorName.map { "error \($0): \(errorMessage ?? "")" } ?? "reply \(values)"
    }
}

struct BusError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Calls on the session bus with the arguments written as dbus-send takes them ("string:x",
/// "int64:5", "objpath:/x", "boolean:true", "variant:double:0.4", "array:objpath:/a,/b"), made
/// in this process through the tests' one `BusClient` (no dbus-send spawned per call); the
/// replies keep their exact types (`x` for mpris:length, `as` for xesam:artist, …).
enum Bus {
    static let objectPath = "/org/mpris/MediaPlayer2"
    /// Aubade's own interfaces (org.aubade.AudioSession1, org.aubade.Queue1) live here.
    static let aubadePath = "/org/aubade/Player"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// This process's client of its session bus (made at the first call, after the test's
    /// session is up).
    private static let shared = Result { try BusClient(destination: "org.mpris.MediaPlayer2.aubade", label: "aubade.tests.bus") }

    /// `member` is "interface.Method"; `arguments` in dbus-send syntax. Without `path`, the
    /// object of the interface named (in `member`, or for Properties calls in the first
    /// argument): Aubade's own interfaces on `/org/aubade/Player`, the rest on the MPRIS object.
    static func call(_ member: String, _ arguments: [String] = [], destination: String = Daemon.busName,
                     path: String? = nil, timeout: TimeInterval = 15, client: BusClient? = nil) throws -> DBusReply {
        let path = path ?? defaultPath(member: member, arguments: arguments)
        let dot = member.lastIndex(of: ".") ?? member.startIndex
        let interface = String(member[..<dot])
        let name = String(member[member.index(after: dot)...])
        let values = try arguments.map(SendSyntax.value)
        let (outcome, _) = try (client ?? shared.get()).call(path: path, interface: interface, member: name, values,
                                                             destination: destination,
                                                             timeoutMilliseconds: Int32(min(timeout, 600) * 1000))
        switch outcome {
        case .returned(let values): return DBusReply(values: values.map(TypedBusValue.init), errorName: nil)
        case .error(let name, let message): return DBusReply(values: [], errorName: name, errorMessage: message)
        case .noReply(let why): return DBusReply(values: [], errorName: DBusError.noReplyName, errorMessage: why)
        }
    }

    static func defaultPath(member: String, arguments: [String]) -> String {
        let interface = member.hasPrefix(propertiesInterface + ".") ? String(arguments.first?.dropFirst("string:".count) ?? "")
            : String(member[..<(member.lastIndex(of: ".") ?? member.endIndex)])
        return interface.hasPrefix("org.aubade.") ? aubadePath : objectPath
    }

    /// Properties.Get; the value without its variant.
    static func get(_ interface: String, _ property: String) throws -> TypedBusValue {
        let reply = try call("\(propertiesInterface).Get", ["string:\(interface)", "string:\(property)"])
        guard reply.succeeded, let value = reply.values.first else {
            throw BusError("Get \(interface).\(property) failed: \(reply)")
        }
        return value.unwrapped
    }

    /// Properties.Get, keeping the reply exactly as sent (a variant).
    static func getRaw(_ interface: String, _ property: String) throws -> DBusReply {
        try call("\(propertiesInterface).Get", ["string:\(interface)", "string:\(property)"])
    }

    static func getAll(_ interface: String) throws -> [String: TypedBusValue] {
        let reply = try call("\(propertiesInterface).GetAll", ["string:\(interface)"])
        guard reply.succeeded, let dictionary = reply.values.first?.dictionary else {
            throw BusError("GetAll \(interface) failed: \(reply)")
        }
        return dictionary
    }

    /// Properties.Set; `value` in dbus-send syntax, e.g. "double:0.4" (sent as a variant).
    static func set(_ interface: String, _ property: String, _ value: String) throws -> DBusReply {
        try call("\(propertiesInterface).Set", ["string:\(interface)", "string:\(property)", "variant:\(value)"])
    }

    static func player(_ method: String, _ arguments: [String] = []) throws -> DBusReply {
        try call("\(playerInterface).\(method)", arguments)
    }

    static func nameHasOwner(_ name: String) throws -> Bool {
        let reply = try call("org.freedesktop.DBus.NameHasOwner", ["string:\(name)"],
                             destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
        guard reply.succeeded, let answer = reply.values.first?.bool else {
            throw BusError("NameHasOwner failed: \(reply)")
        }
        return answer
    }

    /// The unique name owning `name`, nil when unowned.
    static func nameOwner(_ name: String) throws -> String? {
        let reply = try call("org.freedesktop.DBus.GetNameOwner", ["string:\(name)"],
                             destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
        if reply.errorName == "org.freedesktop.DBus.Error.NameHasNoOwner" { return nil }
        guard reply.succeeded, let owner = reply.values.first?.string else {
            throw BusError("GetNameOwner failed: \(reply)")
        }
        return owner
    }

    /// `gdbus call --session --dest … --object-path … --method INTERFACE.METHOD ARGS…`
    /// (arguments in GVariant text syntax, e.g. "'file:///x.mp3'").
    static func gdbusCall(_ method: String, _ arguments: [String] = [],
                          destination: String = Daemon.busName) throws -> CommandResult {
        try Shell.run("gdbus", ["call", "--session", "--dest", destination, "--object-path", objectPath,
                                "--method", method] + arguments)
    }
}

/// `playerctl -p aubade …`, as a user or a desktop shell drives the player.
enum Playerctl {
    static func run(_ arguments: String...) throws -> CommandResult {
        try run(arguments)
    }

    static func run(_ arguments: [String]) throws -> CommandResult {
        try Shell.run("playerctl", ["-p", "aubade"] + arguments)
    }
}

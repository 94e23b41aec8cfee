import Foundation

/// A method call's outcome as `dbus-send --print-reply` reports it.
struct DBusReply: CustomStringConvertible {
    var command: CommandResult
    /// The reply's arguments; empty for an error or a reply without arguments.
    var values: [DBusValue]
    /// E.g. "org.freedesktop.DBus.Error.InvalidArgs" when the call failed with a D-Bus error.
    var errorName: String?

    var succeeded: Bool { command.succeeded && errorName == nil }
    var description: String {
        errorName.map { "error \($0): \(command.stderr)" } ?? "reply \(values)"
    }
}

struct BusError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Calls on the session bus through `dbus-send` (exact types) and `gdbus`.
enum Bus {
    static let objectPath = "/org/mpris/MediaPlayer2"
    /// Aubade's own interfaces (org.aubade.AudioSession1, org.aubade.Queue1) live here.
    static let aubadePath = "/org/aubade/Player"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"
    static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"

    /// `dbus-send --session --print-reply --dest=DEST PATH MEMBER ARGS…`; `member` is
    /// "interface.Method", arguments in dbus-send syntax ("string:x", "variant:double:0.4").
    /// Without `path`, the object of the interface named (in `member`, or for Properties calls
    /// in the first argument): Aubade's own interfaces on `/org/aubade/Player`, the rest on the
    /// MPRIS object.
    static func call(_ member: String, _ arguments: [String] = [], destination: String = Daemon.busName,
                     path: String? = nil, timeout: TimeInterval = 20) throws -> DBusReply {
        let path = path ?? defaultPath(member: member, arguments: arguments)
        let command = try Shell.run("dbus-send", ["--session", "--print-reply", "--reply-timeout=10000",
                                                  "--dest=\(destination)", path, member] + arguments,
                                    timeout: timeout)
        guard command.succeeded else {
            // "Error org.freedesktop.DBus.Error.UnknownMethod: …"
            let firstLine = command.stderr.split(separator: "\n").first ?? ""
            let words = firstLine.split(separator: " ")
            let name = words.count > 1 && words[0] == "Error" ? String(words[1].dropLast(words[1].hasSuffix(":") ? 1 : 0)) : nil
            return DBusReply(command: command, values: [], errorName: name ?? "(dbus-send failed: \(command))")
        }
        // First line: "method return time=… sender=… -> destination=… serial=… reply_serial=…".
        let body = command.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            .joined(separator: "\n")
        let values = try DBusValueParser.parseAll(body)
        return DBusReply(command: command, values: values, errorName: nil)
    }

    static func defaultPath(member: String, arguments: [String]) -> String {
        let interface = member.hasPrefix(propertiesInterface + ".") ? String(arguments.first?.dropFirst("string:".count) ?? "")
            : String(member[..<(member.lastIndex(of: ".") ?? member.endIndex)])
        return interface.hasPrefix("org.aubade.") ? aubadePath : objectPath
    }

    /// Properties.Get; the value without its variant.
    static func get(_ interface: String, _ property: String) throws -> DBusValue {
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

    static func getAll(_ interface: String) throws -> [String: DBusValue] {
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

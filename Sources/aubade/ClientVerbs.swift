import DBusKit
import Dispatch
import Glibc
import MPRIS

/// The verbs that talk to a running daemon over the session bus.
enum ClientVerbs {
    /// `aubade route`: where the music goes now.
    static func route() -> Int32 {
        let queue = DispatchQueue(label: "aubade.client")
        return queue.sync { routeOnQueue(queue) }
    }

    /// DBusKit connections are used on their own queue only.
    private static func routeOnQueue(_ queue: DispatchQueue) -> Int32 {
        do throws(DBusError) {
            let connection = try Connection(bus: .session, queue: queue)
            let call = try Message.methodCall(destination: MPRISNames.busName, path: MPRISNames.objectPath,
                                              interface: MPRISNames.propertiesInterface, member: "Get",
                                              arguments: [.string(MPRISNames.audioSessionInterface), .string("CurrentRoute")])
            let reply = try connection.callBlocking(call)
            if let error = reply.carriedError { throw error }
            guard let fields = try reply.arguments().first?.asVardict, !fields.isEmpty else {
                print("no route: the sound server has no output")
                return 0
            }
            print(RouteText.describe(fields))
            return 0
        } catch {
            CommandLineInterface.printError("aubade route: \(ClientVerbs.explain(error))")
            return 1
        }
    }

    static func explain(_ error: DBusError) -> String {
        if error.name == "org.freedesktop.DBus.Error.ServiceUnknown" || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return "aubade is not running (start it with `aubade serve` or `systemctl --user start aubade`)"
        }
        return error.message
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

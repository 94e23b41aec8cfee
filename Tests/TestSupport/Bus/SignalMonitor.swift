import DBusKit
import Foundation

/// One signal as the monitor received it, with its arguments as the tests read them.
struct MonitoredMessage: CustomStringConvertible {
    /// Always "signal" (the monitor watches signals only).
    var kind: String { "signal" }
    var member: String?
    var interface: String?
    var path: String?
    var sender: String?
    var arguments: [TypedBusValue]
    /// When it arrived (seconds since 1970, as `Date().timeIntervalSince1970`).
    var time: Double?

    init(_ received: BusClient.Received) {
        self.init(received.message)
        time = received.wall
    }

    init(_ message: Message) {
        member = message.member
        interface = message.interface
        path = message.path
        sender = message.sender
        arguments = ((try? message.arguments()) ?? []).map(TypedBusValue.init)
    }

    var isPropertiesChanged: Bool {
        interface == Bus.propertiesInterface && member == "PropertiesChanged"
    }

    /// For PropertiesChanged: the interface whose properties changed.
    var changedInterface: String? { isPropertiesChanged ? arguments.first?.string : nil }
    /// For PropertiesChanged: the changed properties and their new values.
    var changedProperties: [String: TypedBusValue] {
        guard isPropertiesChanged, arguments.count >= 2 else { return [:] }
        return arguments[1].dictionary ?? [:]
    }
    /// For PropertiesChanged: the properties announced as invalidated (no value).
    var invalidatedProperties: [String] {
        guard isPropertiesChanged, arguments.count >= 3 else { return [] }
        return arguments[2].strings ?? []
    }

    var description: String {
        "signal sender=\(sender ?? "?") path=\(path ?? "?") interface=\(interface ?? "?") member=\(member ?? "?") \(arguments)"
    }
}

/// The signals matching some rules, collected in this process (the tests' `BusClient`, its own
/// connection): ready when `init` returns, since the bus has the rules by then, so no signal
/// sent afterwards is missed. Waits wake on each arrival.
final class SignalMonitor {
    private let client: BusClient

    /// Watches the signals sent by `sender` (a unique name).
    convenience init(sender: String) throws {
        try self.init(rules: ["type='signal',sender='\(sender)'"])
    }

    /// Watches the signals matching `rules` (match rules), from whoever sends them: for signals
    /// sent before the sender's unique name is known (a daemon starting up).
    init(rules: [String]) throws {
        client = try BusClient(label: "aubade.tests.monitor")
        for rule in rules { try client.watchSignals(matching: rule) }
    }

    /// Every signal so far, oldest first.
    var messages: [MonitoredMessage] { client.received.map(MonitoredMessage.init) }

    /// A position in the stream of messages: later waits look only at what comes after it.
    var mark: Int { client.signalMark }

    /// Waits for a message after `mark` that satisfies `predicate`.
    func waitForMessage(after mark: Int = 0, timeout: TimeInterval = 5,
                        where predicate: (MonitoredMessage) -> Bool) -> MonitoredMessage? {
        client.waitForReceived(after: mark, timeout: timeout) { predicate(MonitoredMessage($0)) }.map(MonitoredMessage.init)
    }

    /// Waits for PropertiesChanged on the Player interface carrying `property`; returns its value.
    func waitForPlayerChange(_ property: String, after mark: Int = 0,
                             timeout: TimeInterval = 5) -> TypedBusValue? {
        waitForMessage(after: mark, timeout: timeout) {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties[property] != nil
        }?.changedProperties[property]
    }

    /// Returns once every signal `peer` sent before it answered a Ping (sent now, on the
    /// monitor's own connection) is in `messages`: a peer's replies and signals reach one
    /// connection in the order sent. A mark taken after this leaves out what the peer did
    /// before (a daemon's start-up), however late it was read.
    func settle(with peer: String) throws {
        let (outcome, _) = try client.call(path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping",
                                           destination: peer, timeoutMilliseconds: 20_000)
        guard outcome.isReply else { throw BusError("\(peer) did not answer Ping: \(outcome)") }
    }

    /// Stops collecting (the connection closes with the monitor).
    func stop() {}
}

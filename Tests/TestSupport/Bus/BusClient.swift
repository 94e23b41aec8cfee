import DBusKit
import Dispatch
import Foundation

/// The tests' bus client, in this process (DBusKit): the one they call the daemon, the guard,
/// the stand-in bluetoothd and the bus daemon with, and watch signals with. It sends any call at
/// all (any destination, path, interface or none, member and arguments, including `h` and
/// signatures the callee does not expect: the hostile-client tests), times each call, calls
/// without waiting (an AddTrack still loading while other calls go on), or sends without
/// expecting a reply (mpris-proxy never sends one for an empty reply). No process is spawned per
/// call: thousands of calls take seconds.
///
/// Own connection, own queue; a blocking call waits for its own reply, so each reply belongs to
/// one call and its round trip is measured alone. Use one client per concurrent caller.
final class BusClient: @unchecked Sendable {
    /// How a call ended.
    enum Outcome: CustomStringConvertible {
        /// A method return, with its arguments.
        case returned([DBusKit.DBusValue])
        /// An error reply from the callee (or from the bus, e.g. ServiceUnknown).
        case error(name: String, message: String)
        /// No answer within the timeout, or the connection broke: the failure the hostile tests look for.
        case noReply(String)

        var errorName: String? {
            if case .error(let name, _) = self { return name }
            return nil
        }
        var isReturn: Bool {
            if case .returned = self { return true }
            return false
        }
        var isReply: Bool {
            if case .noReply = self { return false }
            return true
        }
        var description: String {
            switch self {
            case .returned(let values): return "return \(DBusKit.DBusValue.signature(of: values).prefix(40))"
            case .error(let name, let message): return "error \(name): \(message.prefix(160))"
            case .noReply(let why): return "NO REPLY (\(why))"
            }
        }
    }

    let queue: DispatchQueue
    private let connection: Connection
    /// The daemon's well-known name, where calls go unless told otherwise.
    let destination: String

    init(destination: String = "org.mpris.MediaPlayer2.aubade", label: String = "aubade.tests.raw",
         bus: Connection.Bus = .session) throws {
        self.destination = destination
        let queue = DispatchQueue(label: label)
        self.queue = queue
        let result = queue.sync { () -> Result<Connection, DBusError> in
            do throws(DBusError) { return .success(try Connection(bus: bus, queue: queue)) } catch { return .failure(error) }
        }
        connection = try result.get()
        queue.setSpecific(key: Self.ownQueue, value: queueToken)
    }

    /// Marks this client's queue, so `deinit` knows when it runs on it.
    private static let ownQueue = DispatchSpecificKey<ObjectIdentifier>()
    private let token = QueueToken()
    private var queueToken: ObjectIdentifier { ObjectIdentifier(token) }
    private final class QueueToken: Sendable {}

    deinit {
        let connection = self.connection
        // The last reference can be the one a signal handler holds on this very queue (the
        // test let go of the client meanwhile): a `sync` there waits for itself, and
        // libdispatch traps (SIGILL).
        if DispatchQueue.getSpecific(key: Self.ownQueue) == queueToken {
            connection.close()
        } else {
            queue.sync { connection.close() }
        }
    }

    /// Calls and waits up to `timeoutMilliseconds`; never throws for what the callee answers.
    /// Throws only when the call cannot even be built (an invalid path or member name).
    func call(path: String, interface: String?, member: String, _ arguments: [DBusKit.DBusValue] = [],
              destination: String? = nil, timeoutMilliseconds: Int32 = 5_000) throws -> (outcome: Outcome, seconds: Double) {
        let message = try Message.methodCall(destination: destination ?? self.destination, path: path,
                                             interface: interface, member: member, arguments: arguments)
        let connection = self.connection
        return queue.sync {
            let start = DispatchTime.now().uptimeNanoseconds
            let outcome: Outcome
            do throws(DBusError) {
                let reply = try connection.callBlocking(message, timeoutMilliseconds: timeoutMilliseconds)
                if let error = reply.carriedError {
                    outcome = .error(name: error.name, message: error.message)
                } else {
                    outcome = .returned((try? reply.arguments()) ?? [])
                }
            } catch {
                // libdbus reports a timeout as NoReply, a broken connection as Disconnected.
                if error.name == DBusError.noReplyName || error.name == DBusError.disconnectedName {
                    outcome = .noReply("\(error.name): \(error.message)")
                } else {
                    outcome = .error(name: error.name, message: error.message)
                }
            }
            return (outcome, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
    }

    /// Sends a call and returns at once; `completion` runs later on this client's queue with
    /// the outcome and the round trip. For calls that may take long (loading files), so other
    /// calls go on meanwhile.
    func callAsync(path: String, interface: String?, member: String, _ arguments: [DBusKit.DBusValue] = [],
                   timeoutMilliseconds: Int32 = 60_000,
                   completion: @escaping @Sendable (Outcome, Double) -> Void) throws {
        let message = try Message.methodCall(destination: destination, path: path,
                                             interface: interface, member: member, arguments: arguments)
        let connection = self.connection
        let failure = queue.sync { () -> DBusError? in
            let start = DispatchTime.now().uptimeNanoseconds
            do throws(DBusError) {
                try connection.call(message, timeoutMilliseconds: timeoutMilliseconds) { result in
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    switch result {
                    case .success(let reply): completion(.returned((try? reply.arguments()) ?? []), seconds)
                    case .failure(let error) where error.name == DBusError.noReplyName || error.name == DBusError.disconnectedName:
                        completion(.noReply("\(error.name): \(error.message)"), seconds)
                    case .failure(let error): completion(.error(name: error.name, message: error.message), seconds)
                    }
                }
                connection.flush()
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// Sends a call and does not wait for (or keep) the reply: for callees that never answer
    /// (mpris-proxy forwards a call whose reply is empty and sends nothing back).
    func send(path: String, interface: String?, member: String, _ arguments: [DBusKit.DBusValue] = [],
              destination: String? = nil) throws {
        let message = try Message.methodCall(destination: destination ?? self.destination, path: path,
                                             interface: interface, member: member, arguments: arguments)
        let connection = self.connection
        let failure = queue.sync { () -> DBusError? in
            do throws(DBusError) {
                try connection.send(message)
                connection.flush()
                return nil
            } catch {
                return error
            }
        }
        if let failure { throw failure }
    }

    /// org.freedesktop.DBus.Peer.Ping: answered by libdbus inside the daemon's dispatch, so
    /// it proves the daemon's connection is still served.
    func ping(timeoutMilliseconds: Int32 = 5_000) throws -> Outcome {
        try call(path: "/", interface: "org.freedesktop.DBus.Peer", member: "Ping",
                 timeoutMilliseconds: timeoutMilliseconds).outcome
    }

    /// A signal as it arrived: the message, and when (monotonic, and wall-clock seconds since 1970).
    struct Received {
        var message: Message
        var at: DispatchTime
        var wall: Double
    }

    /// The signals received since `watchSignals`, oldest first.
    var signals: [Message] { received.map(\.message) }
    var received: [Received] { signalsArrived.withLock { receivedSignals } }
    private var receivedSignals: [Received] = []  // under `signalsArrived`
    private let signalsArrived = NSCondition()

    /// Starts collecting the signals that match `rule` (an AddMatch rule), e.g. the daemon's.
    /// Returns once the bus has the rule, so no signal sent afterwards is missed.
    func watchSignals(matching rule: String) throws {
        let connection = self.connection
        let failure = queue.sync { () -> DBusError? in
            connection.onSignal = { [weak self] message in self?.arrived(message) }
            do throws(DBusError) { try connection.addMatch(rule) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    private func arrived(_ message: Message) {
        let received = Received(message: message, at: .now(), wall: Date().timeIntervalSince1970)
        signalsArrived.withLock {
            receivedSignals.append(received)
            signalsArrived.broadcast()
        }
    }

    /// Waits up to `timeout` for a signal after the first `index` that satisfies `condition`:
    /// woken by each arrival, no polling.
    func waitForReceived(after index: Int = 0, timeout: TimeInterval = 5, _ condition: (Message) -> Bool) -> Received? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        signalsArrived.lock()
        defer { signalsArrived.unlock() }
        var next = index
        while true {
            while next < receivedSignals.count {
                if condition(receivedSignals[next].message) { return receivedSignals[next] }
                next += 1
            }
            if !signalsArrived.wait(until: deadline) { return nil }
        }
    }

    /// Waits up to `timeout` for a signal that satisfies `condition`.
    func waitForSignal(after index: Int = 0, timeout: TimeInterval = 5, _ condition: (Message) -> Bool) -> Message? {
        waitForReceived(after: index, timeout: timeout, condition)?.message
    }

    /// How many signals arrived so far: a mark for `waitForSignal(after:)`.
    var signalMark: Int { signalsArrived.withLock { receivedSignals.count } }

    /// Properties.Get on the object that carries `interface`; the value without its variant, or
    /// nil on an error.
    func property(_ interface: String, _ name: String) throws -> DBusKit.DBusValue? {
        let (outcome, _) = try call(path: Self.path(of: interface), interface: "org.freedesktop.DBus.Properties",
                                    member: "Get", [.string(interface), .string(name)])
        guard case .returned(let values) = outcome else { return nil }
        return values.first?.unwrapped
    }

    /// The daemon's object that carries `interface`: Aubade's own interfaces live on
    /// /org/aubade/Player, MPRIS's on /org/mpris/MediaPlayer2.
    static func path(of interface: String) -> String {
        interface.hasPrefix("org.aubade.") ? "/org/aubade/Player" : "/org/mpris/MediaPlayer2"
    }
}

/// Calls by interface, on the object that carries it, thrown errors: what most tests want.
extension BusClient {
    private func message(_ interface: String, _ member: String,
                         _ arguments: [DBusKit.DBusValue]) throws -> Message {
        // Aubade's own interfaces are on their own object; Properties calls go where the
        // interface they name lives.
        var named = interface
        if interface == "org.freedesktop.DBus.Properties", case .string(let target)? = arguments.first { named = target }
        return try Message.methodCall(destination: destination, path: Self.path(of: named),
                                      interface: interface, member: member, arguments: arguments)
    }

    /// Calls and waits; returns the reply's arguments and the round trip in seconds.
    /// An error reply is thrown (as DBusKit's `DBusError`, with its D-Bus name).
    func call(_ interface: String, _ member: String, _ arguments: [DBusKit.DBusValue] = [],
              timeoutMilliseconds: Int32 = 120_000) throws -> (values: [DBusKit.DBusValue], seconds: Double) {
        let connection = self.connection
        let call = try message(interface, member, arguments)
        let result = queue.sync { () -> Result<([DBusKit.DBusValue], Double), DBusError> in
            do throws(DBusError) {
                let start = DispatchTime.now().uptimeNanoseconds
                let reply = try connection.callBlocking(call, timeoutMilliseconds: timeoutMilliseconds)
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                if let error = reply.carriedError { throw error }
                return .success((try reply.arguments(), seconds))
            } catch {
                return .failure(error)
            }
        }
        let (values, seconds) = try result.get()
        return (values, seconds)
    }

    /// Sends a call and returns at once; `completion` runs (on this client's queue) with the
    /// outcome and the round trip in seconds.
    func callAsync(_ interface: String, _ member: String, _ arguments: [DBusKit.DBusValue] = [],
                   timeoutMilliseconds: Int32 = 300_000,
                   completion: @escaping @Sendable (Result<[DBusKit.DBusValue], DBusError>, Double) -> Void) throws {
        let connection = self.connection
        let call = try message(interface, member, arguments)
        let sent = queue.sync { () -> DBusError? in
            let start = DispatchTime.now().uptimeNanoseconds
            do throws(DBusError) {
                try connection.call(call, timeoutMilliseconds: timeoutMilliseconds) { result in
                    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                    completion(result.flatMap { reply -> Result<[DBusKit.DBusValue], DBusError> in
                        if let error = reply.carriedError { return .failure(error) }
                        do throws(DBusError) { return .success(try reply.arguments()) } catch { return .failure(error) }
                    }, seconds)
                }
                connection.flush()
                return nil
            } catch {
                return error
            }
        }
        if let sent { throw sent }
    }

    /// Properties.Get, timed.
    func get(_ interface: String, _ property: String) throws -> (value: DBusKit.DBusValue?, seconds: Double) {
        let (values, seconds) = try call("org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(property)])
        return (values.first?.unwrapped, seconds)
    }
}

/// Medians and percentiles of timings.
struct Timings: CustomStringConvertible {
    var seconds: [Double]

    var sorted: [Double] { seconds.sorted() }
    func percentile(_ fraction: Double) -> Double {
        let ordered = sorted
        guard !ordered.isEmpty else { return .nan }
        return ordered[min(ordered.count - 1, Int((Double(ordered.count - 1) * fraction).rounded()))]
    }
    var median: Double { percentile(0.5) }
    var max: Double { seconds.max() ?? .nan }
    var description: String {
        String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms over %d", median * 1000, percentile(0.99) * 1000,
               max * 1000, seconds.count)
    }
}

import DBusKit
import Dispatch
import Foundation

/// A session-bus client in this process (DBusKit) that sends any call at all: any destination,
/// path, interface (or none), member and arguments, including `h` (file descriptors) and
/// signatures the callee does not expect. For the hostile-client tests and benchmark, where
/// spawning busctl per call would take minutes for thousands of calls.
///
/// Every call waits for its answer (up to a timeout), so each reply belongs to one call and
/// its round trip is measured alone. Own connection, own queue; use it from one thread.
final class RawBusClient: @unchecked Sendable {
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
    }

    deinit {
        let connection = self.connection
        queue.sync { connection.close() }
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

    /// The signals received since `watchSignals`, oldest first.
    var signals: [Message] { queue.sync { receivedSignals } }
    private var receivedSignals: [Message] = []  // touched only on `queue`

    /// Starts collecting the signals that match `rule` (an AddMatch rule), e.g. the daemon's.
    /// Returns once the bus has the rule, so no signal sent afterwards is missed.
    func watchSignals(matching rule: String) throws {
        let connection = self.connection
        let failure = queue.sync { () -> DBusError? in
            connection.onSignal = { [weak self] message in self?.receivedSignals.append(message) }
            do throws(DBusError) { try connection.addMatch(rule) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Waits up to `timeout` for a signal that satisfies `condition`.
    func waitForSignal(timeout: TimeInterval = 5, _ condition: (Message) -> Bool) -> Message? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        repeat {
            if let found = signals.first(where: condition) { return found }
            Thread.sleep(forTimeInterval: 0.02)
        } while Date() < deadline
        return nil
    }

    /// Properties.Get on the MPRIS object; the value without its variant, or nil on an error.
    func property(_ interface: String, _ name: String) throws -> DBusKit.DBusValue? {
        let (outcome, _) = try call(path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties",
                                    member: "Get", [.string(interface), .string(name)])
        guard case .returned(let values) = outcome else { return nil }
        return values.first?.unwrapped
    }
}

/// What /proc says about a process: open descriptors and resident memory.
enum ProcessFacts {
    /// The number of open file descriptors (entries of /proc/PID/fd).
    static func openDescriptors(of pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    /// What the open descriptors are (the targets of /proc/PID/fd/N), for a failure message.
    static func descriptorTargets(of pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { name in
            "\(name) → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) ?? "?")
        }
    }

    /// VmRSS in KiB (/proc/PID/status).
    static func residentKilobytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else {
            throw DaemonError("no VmRSS in /proc/\(pid)/status")
        }
        return kilobytes
    }
}

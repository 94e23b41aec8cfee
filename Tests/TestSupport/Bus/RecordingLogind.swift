import DBusKit
import Dispatch
import Foundation

/// A stand-in logind like SleepTests' `FakeLogind`, on a private "system" bus, that records
/// every Inhibit call: its (what, who, why, mode) and the read end of the pipe whose write end
/// went back to the caller, so a test can ask whether each inhibitor is still held (the caller
/// keeps its copy open) or was released (the read end sees end-of-file).
final class RecordingLogind: @unchecked Sendable {
    struct Inhibitor: CustomStringConvertible {
        var what: String
        var who: String
        var why: String
        var mode: String
        /// The read end; ours, closed in `close()`.
        fileprivate var readEnd: Int32
        /// CLOCK_MONOTONIC seconds when it was taken (`ProcessMPRISPlayer.now()`, the fake players' clock).
        var takenAt: Double

        var description: String { "(\(what), \(who), \(why), \(mode))" }
    }

    private let queue = DispatchQueue(label: "recording-logind")
    private let connection: Connection
    private let lock = NSLock()
    private var _inhibitors: [Inhibitor] = []
    /// Indexes of inhibitors whose descriptor was seen closed (EOF is only reported once).
    private var released: Set<Int> = []

    init(address: String) throws {
        let queue = self.queue
        let result = queue.sync { () -> Result<Connection, DBusError> in
            do throws(DBusError) {
                let connection = try Connection(bus: .address(address), queue: queue)
                _ = try connection.requestName("org.freedesktop.login1")
                return .success(connection)
            } catch {
                return .failure(error)
            }
        }
        connection = try result.get()
        let connection = self.connection
        let registered = queue.sync { () -> DBusError? in
            do throws(DBusError) {
                try connection.registerObject(path: "/org/freedesktop/login1") { [weak self] message in
                    self?.receive(message)
                }
                return nil
            } catch {
                return error
            }
        }
        if let registered { throw registered }
    }

    /// Every Inhibit so far, oldest first.
    var inhibitors: [Inhibitor] { lock.withLock { _inhibitors } }

    /// Indexes (into `inhibitors`) of those matching `predicate`.
    func indexes(where predicate: (Inhibitor) -> Bool) -> [Int] {
        inhibitors.enumerated().filter { predicate($0.element) }.map(\.offset)
    }

    /// The caller closed its descriptor of inhibitor `index`.
    func isReleased(_ index: Int) -> Bool {
        lock.withLock {
            guard index < _inhibitors.count else { return false }
            if released.contains(index) { return true }
            let fd = _inhibitors[index].readEnd
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) == 1 else { return false }
            var byte: UInt8 = 0
            if read(fd, &byte, 1) == 0 {
                released.insert(index)
                return true
            }
            return false
        }
    }

    /// The inhibitors still held, with their indexes.
    var held: [(index: Int, inhibitor: Inhibitor)] {
        inhibitors.enumerated().filter { !isReleased($0.offset) }.map { ($0.offset, $0.element) }
    }

    var summary: String {
        inhibitors.enumerated().map { "#\($0.offset) \($0.element) \(isReleased($0.offset) ? "released" : "held")" }
            .joined(separator: "; ")
    }

    func close() {
        let connection = self.connection
        queue.sync { connection.close() }
        lock.withLock { for inhibitor in _inhibitors { Glibc.close(inhibitor.readEnd) } }
    }

    private func receive(_ message: Message) {
        guard message.kind == .methodCall, message.member == "Inhibit" else {
            if message.expectsReply {
                try? connection.send(message.makeError(.unknownMethod("only Inhibit here")))
            }
            return
        }
        let arguments = ((try? message.arguments()) ?? []).compactMap(\.asString)
        guard arguments.count == 4 else {
            try? connection.send(message.makeError(.invalidArgs("Inhibit(ssss)")))
            return
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0, let reply = try? message.makeReturn([.unixFD(ends[1])]) else { return }
        // The reply holds its own duplicate of the write end; ours goes, so that EOF on the
        // read end means the caller closed its copy.
        Glibc.close(ends[1])
        lock.withLock {
            _inhibitors.append(Inhibitor(what: arguments[0], who: arguments[1], why: arguments[2], mode: arguments[3],
                                         readEnd: ends[0], takenAt: ProcessMPRISPlayer.now()))
        }
        try? connection.send(reply)
    }
}

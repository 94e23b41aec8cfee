import Foundation
@testable import TestSupport

/// The MPD benchmark's client: one TCP connection to 127.0.0.1, blocking, with every wait
/// bounded by a deadline (poll), made to time answers and count their bytes rather than to
/// parse them. An answer ends at a line `OK`, a line `ACK …` or the server closing the
/// connection (mpd closes a client whose answer outgrows its output buffer: `listallinfo` of a
/// big library). Only an answer's last 64 KiB are kept unless asked (`keep`), so a 25 MB
/// `listallinfo` costs this process a count, not a copy.
final class MPDBenchConnection {
    /// How an answer ended.
    enum End: Equatable {
        case ok
        case ack(String)
        /// The server closed the connection before its OK.
        case closed
    }

    struct Answer {
        var end: End
        /// Bytes received for this answer, its OK or ACK line included.
        var bytes: Int
        /// From just before the command was written to the read that completed the answer.
        var milliseconds: Double
        /// The answer's text (all of it with `keep`, else at most its last 64 KiB).
        var text: String
        /// When the answer was complete.
        var at: Stamp

        /// "key: value" lines (the last value of a repeated key).
        var fields: [String: String] {
            var result: [String: String] = [:]
            for line in text.split(separator: "\n") {
                if let colon = line.range(of: ": ") { result[String(line[..<colon.lowerBound])] = String(line[colon.upperBound...]) }
            }
            return result
        }

        /// The values of every `key: value` line with this key, in order.
        func values(_ key: String) -> [String] {
            text.split(separator: "\n").compactMap { line in
                line.hasPrefix(key + ": ") ? String(line.dropFirst(key.count + 2)) : nil
            }
        }
    }

    let port: UInt16
    let greeting: String
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private(set) var isClosed = false

    /// Connects, retrying every 2 ms while nothing listens (a server starting), until
    /// `timeout`; `alive` is asked between tries (a server that exited will never listen).
    init(port: UInt16, timeout: TimeInterval = 30, alive: () -> Bool = { true }) throws {
        self.port = port
        let deadline = Date(timeIntervalSinceNow: timeout)
        var connected: Int32 = -1
        while true {
            let attempt = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard attempt >= 0 else { throw DaemonError("socket: \(String(cString: strerror(errno)))") }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(attempt, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            if result == 0 {
                connected = attempt
                break
            }
            close(attempt)
            guard Date() < deadline, alive() else { throw DaemonError("nothing accepts MPD connections on 127.0.0.1:\(port)") }
            Thread.sleep(forTimeInterval: 0.002)
        }
        descriptor = connected
        var line: [UInt8] = []
        let greetingDeadline = Date(timeIntervalSinceNow: timeout)
        while line.last != 0x0A {
            guard let chunk = try Self.receive(connected, until: greetingDeadline), !chunk.isEmpty else {
                close(connected)
                throw DaemonError("127.0.0.1:\(port) closed or said nothing instead of greeting")
            }
            line += chunk
        }
        greeting = String(decoding: line.dropLast(), as: UTF8.self)
        guard greeting.hasPrefix("OK MPD ") else {
            close(connected)
            throw DaemonError("127.0.0.1:\(port) greeted with \(greeting)")
        }
    }

    deinit { if !isClosed { close(descriptor) } }

    func disconnect() {
        guard !isClosed else { return }
        isClosed = true
        close(descriptor)
    }

    /// Waits for bytes until `deadline`: nil when it passed, [] when the peer closed.
    private static func receive(_ descriptor: Int32, until deadline: Date) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 256 * 1024)
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return nil }
            var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
            if ready < 0 && errno == EINTR { continue }
            if ready < 0 { throw DaemonError("poll: \(String(cString: strerror(errno)))") }
            if ready == 0 { continue }
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && errno == ECONNRESET { return [] }
            if count < 0 { throw DaemonError("read: \(String(cString: strerror(errno)))") }
            return Array(buffer[0..<count])
        }
    }

    /// Writes `line` and a newline.
    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw DaemonError("write to 127.0.0.1:\(port): \(String(cString: strerror(errno)))") }
            offset += count
        }
    }

    /// Sends `line` and reads its answer, timed from just before the write.
    @discardableResult
    func command(_ line: String, timeout: TimeInterval = 60, keep: Bool = true) throws -> Answer {
        let start = Stamp.now()
        try send(line)
        return try readAnswer(since: start, timeout: timeout, keep: keep)
    }

    /// Like `command`, but an ACK or a closed connection is thrown.
    @discardableResult
    func ok(_ line: String, timeout: TimeInterval = 60) throws -> Answer {
        let answer = try command(line, timeout: timeout)
        guard answer.end == .ok else { throw DaemonError("127.0.0.1:\(port): \(line): \(answer.end)") }
        return answer
    }

    /// True when bytes wait to be read (an idle already answered, say).
    var hasPendingInput: Bool {
        if !pending.isEmpty { return true }
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    /// Reads one answer: up to a line `OK` or `ACK …`, or the end of the connection. The
    /// server sends nothing after an answer's last line until the next command, so only the
    /// last line received is looked at.
    func readAnswer(since start: Stamp, timeout: TimeInterval = 60, keep: Bool = true) throws -> Answer {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var kept = pending
        var total = pending.count
        pending = []
        while true {
            if let end = Self.lastLineEnd(kept) {
                let at = Stamp.now()
                return Answer(end: end, bytes: total, milliseconds: start.milliseconds(to: at),
                              text: String(decoding: kept, as: UTF8.self), at: at)
            }
            guard let next = try Self.receive(descriptor, until: deadline) else {
                throw DaemonError("127.0.0.1:\(port): no complete answer within \(Int(timeout)) s (\(total) bytes)")
            }
            if next.isEmpty {
                isClosed = true
                close(descriptor)
                let at = Stamp.now()
                return Answer(end: .closed, bytes: total, milliseconds: start.milliseconds(to: at),
                              text: String(decoding: kept, as: UTF8.self), at: at)
            }
            total += next.count
            kept += next
            if !keep, kept.count > 1 << 20 {
                // Keep the last 64 KiB, cut at a line.
                let cut = kept.count - 64 * 1024
                let line = kept[cut...].firstIndex(of: 0x0A).map { $0 + 1 } ?? cut
                kept.removeSubrange(..<line)
            }
        }
    }

    /// How the answer ends if its last complete line is `OK` or `ACK …` and nothing follows.
    private static func lastLineEnd(_ bytes: [UInt8]) -> End? {
        guard bytes.last == 0x0A else { return nil }
        var index = bytes.count - 2
        while index >= 0, bytes[index] != 0x0A { index -= 1 }
        let line = bytes[(index + 1)..<(bytes.count - 1)]
        if line.elementsEqual("OK".utf8) { return .ok }
        if line.starts(with: "ACK ".utf8) { return .ack(String(decoding: line, as: UTF8.self)) }
        return nil
    }
}

/// MPD's quoting of one argument.
func mpdQuoted(_ text: String) -> String {
    "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
}

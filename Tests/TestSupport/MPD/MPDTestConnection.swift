import Foundation

/// One raw MPD connection for the tests: bytes out exactly as given (an 8 KiB line, a NUL,
/// invalid UTF-8, half a line), bytes in exactly as the server sent them, every wait bounded.
///
/// No MPD library: the tests judge the framing itself (that every answer still parses, that a
/// tag cannot forge a line), so nothing may be parsed or repaired on the way. Reads wait with
/// `poll` up to a deadline and throw `MPDTestError.timedOut` past it; a connection the server
/// closed reads as `nil`, never as an error, so "closed" is an answer a test can expect.
///
/// @unchecked Sendable: one thread may send while another reads (a client that writes faster
/// than it is answered); sending touches nothing but the descriptor.
final class MPDTestConnection: @unchecked Sendable {
    private(set) var descriptor: Int32
    /// Bytes read but not yet taken.
    private var pending: [UInt8] = []
    /// The greeting (`OK MPD 0.23.5`), read on connecting.
    private(set) var greeting = ""

    /// Connects to the Unix socket at `path`. `receiveBuffer`: a small SO_RCVBUF, set before
    /// connecting, keeps what the kernel holds for a slow reader small.
    static func unix(_ path: String, receiveBuffer: Int? = nil, readsGreeting: Bool = true,
                     timeout: TimeInterval = 5) throws -> MPDTestConnection {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw MPDTestError.system("socket", errno) }
        if let receiveBuffer { setReceiveBuffer(descriptor, receiveBuffer) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: path.utf8.prefix(buffer.count - 1))
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return try MPDTestConnection(descriptor: descriptor, connected: connected, what: path,
                                     readsGreeting: readsGreeting, timeout: timeout)
    }

    /// Connects over TCP to `host` (IPv4 or IPv6) and `port`.
    static func tcp(port: Int, host: String = "127.0.0.1", receiveBuffer: Int? = nil, readsGreeting: Bool = true,
                    timeout: TimeInterval = 5) throws -> MPDTestConnection {
        let family = host.contains(":") ? AF_INET6 : AF_INET
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw MPDTestError.system("socket", errno) }
        if let receiveBuffer { setReceiveBuffer(descriptor, receiveBuffer) }
        let connected: Int32
        if family == AF_INET6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = UInt16(port).bigEndian
            inet_pton(AF_INET6, host, &address.sin6_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = UInt16(port).bigEndian
            inet_pton(AF_INET, host, &address.sin_addr)
            connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        return try MPDTestConnection(descriptor: descriptor, connected: connected, what: "\(host):\(port)",
                                     readsGreeting: readsGreeting, timeout: timeout)
    }

    private static func setReceiveBuffer(_ descriptor: Int32, _ size: Int) {
        var value = Int32(size)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &value, socklen_t(MemoryLayout<Int32>.size))
    }

    private init(descriptor: Int32, connected: Int32, what: String, readsGreeting: Bool, timeout: TimeInterval) throws {
        self.descriptor = descriptor
        guard connected == 0 else {
            let code = errno
            Glibc.close(descriptor)
            self.descriptor = -1
            throw MPDTestError.system("connect to \(what)", code)
        }
        if readsGreeting {
            guard let line = try readLine(timeout: timeout) else { throw MPDTestError.closed("before its greeting") }
            greeting = String(decoding: line, as: UTF8.self)
            guard greeting.hasPrefix("OK MPD ") else { throw MPDTestError.unexpected("greeting \(greeting)") }
        }
    }

    deinit { close() }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    // MARK: Writing

    /// Sends every byte (waiting for the socket up to `timeout`); throws if the server closed.
    func send(_ bytes: [UInt8], timeout: TimeInterval = 5) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var offset = 0
        while offset < bytes.count {
            guard try wait(for: Int16(POLLOUT), until: deadline) else { throw MPDTestError.timedOut("sending \(bytes.count) bytes") }
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress! + offset, buffer.count - offset, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
            }
            if sent > 0 { offset += sent; continue }
            if errno == EINTR || errno == EAGAIN { continue }
            throw MPDTestError.system("send", errno)
        }
    }

    func send(_ text: String, timeout: TimeInterval = 5) throws {
        try send(Array(text.utf8), timeout: timeout)
    }

    /// Sends as much of `bytes` as the socket takes at once, without reading anything: how
    /// many it took (0 when the server stops reading), nil once the server closed.
    func sendWhatFits(_ bytes: [UInt8]) -> Int? {
        let sent = bytes.withUnsafeBytes { buffer in
            Glibc.send(descriptor, buffer.baseAddress!, buffer.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
        if sent >= 0 { return sent }
        return errno == EAGAIN || errno == EINTR ? 0 : nil
    }

    // MARK: Reading

    /// The next line without its `\n`; nil when the server closed the connection first.
    func readLine(timeout: TimeInterval = 5) throws -> [UInt8]? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var searched = 0
        while true {
            if let newline = pending[searched...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                return line
            }
            searched = pending.count
            guard try fill(until: deadline) else { return nil }
        }
    }

    /// Exactly `count` bytes; nil when the server closed first.
    func readBytes(_ count: Int, timeout: TimeInterval = 5) throws -> [UInt8]? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while pending.count < count {
            guard try fill(until: deadline) else { return nil }
        }
        let bytes = Array(pending[..<count])
        pending.removeFirst(count)
        return bytes
    }

    /// Up to `maximum` bytes, whatever arrives first (at least one); nil when closed.
    func readSome(maximum: Int, timeout: TimeInterval = 5) throws -> [UInt8]? {
        if pending.isEmpty {
            guard try fill(until: Date(timeIntervalSinceNow: timeout), maximum: maximum) else { return nil }
        }
        let count = min(maximum, pending.count)
        let bytes = Array(pending[..<count])
        pending.removeFirst(count)
        return bytes
    }

    /// One answer: its lines up to and including `OK` or `ACK …` (binary chunks kept whole in
    /// `binary`). Throws when the server closes first or nothing comes in time.
    func readAnswer(timeout: TimeInterval = 5) throws -> RawMPDAnswer {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var answer = RawMPDAnswer()
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { throw MPDTestError.timedOut("an answer (so far: \(answer.lines.suffix(5)))") }
            guard let line = try readLine(timeout: left) else {
                throw MPDTestError.closed("in the middle of an answer (so far: \(answer.lines.suffix(5)))")
            }
            answer.rawLines.append(line)
            let text = String(decoding: line, as: UTF8.self)
            if text == "OK" { return answer }
            if text.hasPrefix("ACK ") {
                answer.ack = text
                return answer
            }
            if text.hasPrefix("binary: "), let size = Int(text.dropFirst(8)) {
                guard let chunk = try readBytes(size + 1, timeout: max(0.01, deadline.timeIntervalSinceNow)) else {
                    throw MPDTestError.closed("in a binary chunk")
                }
                answer.binary += chunk.dropLast()
            }
        }
    }

    /// Sends `line` and its `\n`, reads the answer.
    @discardableResult
    func command(_ line: String, timeout: TimeInterval = 5) throws -> RawMPDAnswer {
        try send(line + "\n")
        return try readAnswer(timeout: timeout)
    }

    /// Reads and drops whatever comes until the server closes (true) or `timeout` passes
    /// (false). `dropped` counts what came before the end.
    func waitForClose(timeout: TimeInterval = 5) -> (closed: Bool, dropped: [UInt8]) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var dropped = pending
        pending = []
        while true {
            do {
                guard try fill(until: deadline) else { return (true, dropped) }
            } catch MPDTestError.timedOut {
                return (false, dropped)
            } catch {
                return (true, dropped)  // ECONNRESET: closed with unread input on its side
            }
            dropped += pending
            pending = []
        }
    }

    /// Reads what is there into `pending`; false when the server closed.
    private func fill(until deadline: Date, maximum: Int = 64 * 1024) throws -> Bool {
        guard try wait(for: Int16(POLLIN), until: deadline) else { throw MPDTestError.timedOut("data from the server") }
        var chunk = [UInt8](repeating: 0, count: maximum)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                pending += chunk[..<count]
                return true
            }
            if count == 0 { return false }
            if errno == EINTR { continue }
            if errno == EAGAIN { return try fill(until: deadline, maximum: maximum) }
            if errno == ECONNRESET { return false }
            throw MPDTestError.system("recv", errno)
        }
    }

    /// Waits until the socket is ready for `events`; false at the deadline.
    private func wait(for events: Int16, until deadline: Date) throws -> Bool {
        guard descriptor >= 0 else { throw MPDTestError.unexpected("the connection was closed by the test") }
        while true {
            let left = deadline.timeIntervalSinceNow
            guard left > 0 else { return false }
            var entry = pollfd(fd: descriptor, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0, errno != EINTR { throw MPDTestError.system("poll", errno) }
        }
    }
}

/// What the server answered to one command (or list).
struct RawMPDAnswer: CustomStringConvertible {
    /// Every line, its `\n` removed, bytes as sent; the last is `OK` or the ACK.
    var rawLines: [[UInt8]] = []
    /// The `ACK …` line, nil for `OK`.
    var ack: String?
    /// The binary chunks' bytes, end to end.
    var binary: [UInt8] = []

    var isOK: Bool { ack == nil }
    /// The lines as text (invalid UTF-8 shown as U+FFFD), the final `OK` or ACK included.
    var lines: [String] { rawLines.map { String(decoding: $0, as: UTF8.self) } }
    /// The `key: value` lines before the end, in order.
    var pairs: [(key: String, value: String)] {
        lines.dropLast().compactMap { line in
            guard let colon = line.range(of: ": ") else { return nil }
            return (String(line[..<colon.lowerBound]), String(line[colon.upperBound...]))
        }
    }
    /// Every value of `key`.
    func values(_ key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }
    func value(_ key: String) -> String? { values(key).first }

    var description: String { lines.joined(separator: "\\n") }
}

enum MPDTestError: Error, CustomStringConvertible {
    case system(String, Int32)
    case timedOut(String)
    case closed(String)
    case unexpected(String)

    var description: String {
        switch self {
        case .system(let call, let code): return "\(call): \(String(cString: strerror(code)))"
        case .timedOut(let what): return "timed out waiting for \(what)"
        case .closed(let when): return "the server closed the connection \(when)"
        case .unexpected(let what): return "unexpected \(what)"
        }
    }
}

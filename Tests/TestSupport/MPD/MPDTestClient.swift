import Foundation

/// The smallest MPD client a test needs around a real one: connect to 127.0.0.1:PORT, read the
/// greeting, send one command line at a time and read its answer up to `OK` or `ACK`, binary
/// chunks (`binary: N`) kept as bytes. It sets the stage (clear the queue, wait for the
/// library) and reads back what a real client did; the clients under test do the rest.
///
/// Blocking, with every read bounded by `timeout` (SO_RCVTIMEO): a silent server fails the test
/// instead of hanging it. A closed connection is an error too (mpd closes a client whose answer
/// outgrew its buffer).
final class MPDTestClient {
    /// One answer: its `key: value` lines in order, the binary payload if any, and the ACK line
    /// when the command failed.
    struct Answer: CustomStringConvertible {
        var pairs: [(key: String, value: String)] = []
        var binary: Data?
        var ack: String?

        var succeeded: Bool { ack == nil }
        /// The first value of `key`.
        subscript(key: String) -> String? { pairs.first { $0.key == key }?.value }
        /// Every value of `key`, in order.
        func values(_ key: String) -> [String] { pairs.filter { $0.key == key }.map(\.value) }
        var description: String {
            (pairs.map { "\($0.key): \($0.value)" } + [binary.map { "binary: \($0.count) bytes" } ?? "", ack ?? "OK"])
                .filter { !$0.isEmpty }.joined(separator: "\n")
        }
    }

    /// The greeting's line (`OK MPD 0.23.5`).
    private(set) var greeting = ""
    private var descriptor: Int32
    private var pending = Data()

    init(port: Int, timeout: TimeInterval = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonError("socket(): errno \(errno)") }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        var address = Loopback.address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            let why = errno
            Glibc.close(descriptor)
            throw DaemonError("MPD: connect to 127.0.0.1:\(port): errno \(why)")
        }
        greeting = try readLine()
        guard greeting.hasPrefix("OK MPD ") else { throw DaemonError("MPD: greeting \(greeting.debugDescription)") }
    }

    deinit { close() }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    /// Sends `line` and reads its answer; an ACK is returned, not thrown.
    @discardableResult
    func send(_ line: String) throws -> Answer {
        try sendWithoutAnswer(line)
        return try readAnswer(to: line)
    }

    /// Sends `line` and leaves its answer to `readAnswer` (an `idle`, answered when something
    /// changes).
    func sendWithoutAnswer(_ line: String) throws {
        try write(Data((line + "\n").utf8))
    }

    /// Whether bytes of an answer have arrived already (looks, never waits).
    var answerHasArrived: Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        return !pending.isEmpty || poll(&entry, 1, 0) > 0
    }

    /// Reads the answer to the command sent last.
    func readAnswer(to line: String = "the last command") throws -> Answer {
        var answer = Answer()
        while true {
            let text = try readLine()
            if text == "OK" { return answer }
            if text.hasPrefix("ACK ") { answer.ack = text; return answer }
            guard let colon = text.range(of: ": ") else { throw DaemonError("MPD: \(text.debugDescription) in the answer to \(line)") }
            let key = String(text[..<colon.lowerBound]), value = String(text[colon.upperBound...])
            if key == "binary", let count = Int(value) {
                answer.binary = try read(count)
                guard try read(1) == Data([0x0A]) else { throw DaemonError("MPD: no newline after \(count) binary bytes") }
            } else {
                answer.pairs.append((key, value))
            }
        }
    }

    /// Sends `line` and fails unless it is answered `OK`.
    @discardableResult
    func run(_ line: String) throws -> Answer {
        let answer = try send(line)
        guard answer.succeeded else { throw DaemonError("MPD: \(line) → \(answer.ack ?? "")") }
        return answer
    }

    private func write(_ bytes: Data) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw DaemonError("MPD: send: errno \(errno)") }
            offset += sent
        }
    }

    private func readLine() throws -> String {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[pending.index(after: newline)...])
                return line
            }
            try fill()
        }
    }

    private func read(_ count: Int) throws -> Data {
        while pending.count < count { try fill() }
        let bytes = Data(pending.prefix(count))
        pending = Data(pending.dropFirst(count))
        return bytes
    }

    private func fill() throws {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if received > 0 { pending.append(contentsOf: buffer[0..<received]); return }
        if received == 0 { throw DaemonError("MPD: the server closed the connection") }
        throw DaemonError("MPD: recv: errno \(errno) (a timeout is EAGAIN, \(EAGAIN))")
    }
}

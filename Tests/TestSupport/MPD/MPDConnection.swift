import Foundation

/// A small MPD client for tests, over TCP or a Unix socket: it reads the greeting, sends lines
/// as they are given (nothing quoted or checked: tests send hostile lines too) and reads an
/// answer up to its `OK`, its `ACK …` or the connection's end. Binary-aware: after a
/// `binary: N` line it takes N bytes and the newline that follows as one item (`albumart`,
/// `readpicture`), so a picture holding "\nOK\n" cannot end an answer early.
///
/// Lines are bytes: mpd sends a file name that is not UTF-8 as it is on disk, and a test must
/// see those bytes, not a decoder's replacement characters. Every read waits at most `timeout`
/// seconds (a server that hangs fails the test, it does not hang it).
///
///     let mpd = try MPDConnection(.tcp(port: 6600))
///     let answer = try mpd.command("status")       // lines, then .ok
///     mpd.send("idle player"); …; try mpd.readAnswer(timeout: 5)
final class MPDConnection {
    enum Address: CustomStringConvertible {
        case tcp(host: String = "127.0.0.1", port: Int)
        case unix(path: String)

        var description: String {
            switch self {
            case .tcp(let host, let port): "\(host):\(port)"
            case .unix(let path): path
            }
        }
    }

    /// The greeting's line, e.g. `OK MPD 0.23.5`.
    private(set) var greeting = ""
    let address: Address
    private let descriptor: Int32
    private var pending: [UInt8] = []
    private var closed = false
    /// How long one read may wait by default.
    var timeout: TimeInterval

    /// Connects, retrying while nothing listens yet (a server starting), until `connectTimeout`
    /// seconds have passed; `stillStarting` is asked before each retry (a server that exited
    /// will never listen: it returns false, or throws the reason, and the wait ends).
    init(_ address: Address, timeout: TimeInterval = 10, connectTimeout: TimeInterval = 10,
         stillStarting: () throws -> Bool = { true }) throws {
        self.address = address
        self.timeout = timeout
        let deadline = Date(timeIntervalSinceNow: connectTimeout)
        var lastError: Int32 = 0
        while true {
            let attempt = Self.connect(address)
            if let descriptor = attempt.descriptor {
                self.descriptor = descriptor
                break
            }
            lastError = attempt.error
            guard Date() < deadline, try stillStarting() else {
                throw MPDConnectionError("cannot connect to \(address): errno \(lastError)")
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        guard let line = try readLine(deadline: Date(timeIntervalSinceNow: timeout)),
              let text = String(validating: line, as: UTF8.self), text.hasPrefix("OK MPD ") else {
            Glibc.close(descriptor)
            throw MPDConnectionError("\(address) did not greet as MPD")
        }
        greeting = text
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    // MARK: Sending

    /// Sends `line` and a newline.
    func send(_ line: String) throws {
        try send(bytes: Array(line.utf8) + [0x0A])
    }

    /// Sends these lines at once, each with its newline (a command list, pipelined commands).
    func send(lines: [String]) throws {
        try send(bytes: Array(lines.map { $0 + "\n" }.joined().utf8))
    }

    /// Sends bytes as they are (a line that is not UTF-8, several lines at once, no newline).
    func send(bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { throw MPDConnectionError("\(address): send failed: errno \(errno)") }
            offset += written
        }
    }

    /// Sends one command and reads its answer.
    func command(_ line: String, timeout: TimeInterval? = nil) throws -> MPDAnswer {
        try send(line)
        return try readAnswer(timeout: timeout)
    }

    /// Sends `command_list_begin` (or `command_list_ok_begin`), the lines, `command_list_end`,
    /// and reads the one answer.
    func commandList(_ lines: [String], listOK: Bool = false, timeout: TimeInterval? = nil) throws -> MPDAnswer {
        let begin = listOK ? "command_list_ok_begin" : "command_list_begin"
        try send(lines: [begin] + lines + ["command_list_end"])
        return try readAnswer(timeout: timeout)
    }

    // MARK: Reading

    /// Reads items up to and with `OK` or `ACK …`, or to the connection's end.
    func readAnswer(timeout: TimeInterval? = nil) throws -> MPDAnswer {
        let deadline = Date(timeIntervalSinceNow: timeout ?? self.timeout)
        var answer = MPDAnswer()
        while let line = try readLine(deadline: deadline) {
            if line == Array("OK".utf8) {
                answer.end = .ok
                return answer
            }
            if line.starts(with: Array("ACK ".utf8)) {
                answer.end = .ack(String(decoding: line, as: UTF8.self))
                return answer
            }
            answer.items.append(.line(line))
            if line.starts(with: Self.binaryPrefix), let count = Int(String(decoding: line.dropFirst(Self.binaryPrefix.count), as: UTF8.self)) {
                let data = try readBytes(count + 1, deadline: deadline)
                guard data.last == 0x0A else { throw MPDConnectionError("\(address): binary data not followed by a newline") }
                answer.items.append(.binary(Array(data.dropLast())))
            }
        }
        answer.end = .closed
        return answer
    }

    /// What one read returns once something arrived (up to `timeout`): how a server wrote its
    /// answer shows in it (a whole answer written at once arrives in one piece on loopback).
    func readOnce(timeout: TimeInterval? = nil) throws -> [UInt8] {
        guard pending.isEmpty else { return pending }
        guard try fill(deadline: Date(timeIntervalSinceNow: timeout ?? self.timeout)) else { return [] }
        defer { pending = [] }
        return pending
    }

    private static let binaryPrefix = Array("binary: ".utf8)

    /// One line without its newline; nil at the connection's end.
    private func readLine(deadline: Date) throws -> [UInt8]? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = Array(pending[..<newline])
                pending.removeFirst(newline + 1)
                return line
            }
            guard try fill(deadline: deadline) else { return nil }
        }
    }

    private func readBytes(_ count: Int, deadline: Date) throws -> [UInt8] {
        while pending.count < count {
            guard try fill(deadline: deadline) else { throw MPDConnectionError("\(address): closed in binary data") }
        }
        let bytes = Array(pending[..<count])
        pending.removeFirst(count)
        return bytes
    }

    /// Reads what arrives; false at the connection's end.
    private func fill(deadline: Date) throws -> Bool {
        guard !closed else { return false }
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let wait = deadline.timeIntervalSinceNow
        guard wait > 0 else { throw MPDConnectionError("\(address): no answer within the time allowed") }
        let ready = poll(&poller, 1, Int32(min(wait * 1000, Double(Int32.max))))
        if ready < 0, errno == EINTR { return true }
        guard ready > 0 else { throw MPDConnectionError("\(address): no answer within the time allowed") }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count < 0, errno == EINTR || errno == EAGAIN { return true }
        guard count > 0 else { return false }
        pending.append(contentsOf: chunk[..<count])
        return true
    }

    /// A connected socket, or the errno of the failure.
    private static func connect(_ address: Address) -> (descriptor: Int32?, error: Int32) {
        let family: Int32
        switch address {
        case .tcp: family = AF_INET
        case .unix: family = AF_UNIX
        }
        let descriptor = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return (nil, errno) }
        let result: Int32
        switch address {
        case .tcp(let host, let port):
            var socketAddress = sockaddr_in()
            socketAddress.sin_family = sa_family_t(AF_INET)
            socketAddress.sin_port = in_port_t(UInt16(port).bigEndian)
            socketAddress.sin_addr.s_addr = inet_addr(host)
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
        case .unix(let path):
            var socketAddress = sockaddr_un()
            socketAddress.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            guard bytes.count < MemoryLayout.size(ofValue: socketAddress.sun_path) else {
                Glibc.close(descriptor)
                return (nil, ENAMETOOLONG)
            }
            withUnsafeMutableBytes(of: &socketAddress.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            result = withUnsafePointer(to: &socketAddress) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    Glibc.connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
        }
        guard result == 0 else {
            let error = errno
            Glibc.close(descriptor)
            return (nil, error)
        }
        return (descriptor, 0)
    }
}

struct MPDConnectionError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

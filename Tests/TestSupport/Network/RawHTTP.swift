import Foundation

/// A plain-HTTP connection to a server on this machine over a blocking socket, for tests that
/// must see exactly the bytes a server sends: a SHOUTcast `ICY 200 OK` status line, ICY metadata
/// blocks in the body, Latin-1 title bytes. URLSession would reject or decode those.
/// Also the harness's own client for the icecast admin API (basic auth, no TLS).
///
/// Every read waits at most `timeout` seconds (SO_RCVTIMEO) and then throws, so a test never
/// hangs on a silent server. The socket is closed in `close()` or deinit.
final class RawHTTPConnection {
    /// The status line and headers of an answer, as sent (header names keep their case).
    struct Head {
        var statusLine: String
        var headers: [(name: String, value: String)]

        /// The status code (second word of the status line: `HTTP/1.0 200 OK`, `ICY 200 OK`).
        var status: Int? {
            let words = statusLine.split(separator: " ")
            return words.count > 1 ? Int(words[1]) : nil
        }

        /// The first header called `name`, compared without case.
        func value(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }
    }

    private var descriptor: Int32
    /// Bytes read past what was asked for so far.
    private var pending = Data()

    init(port: Int, timeout: TimeInterval = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonError("socket(): errno \(errno)") }
        var wait = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
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
            throw DaemonError("connect to 127.0.0.1:\(port): errno \(why)")
        }
    }

    deinit { close() }

    func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
    }

    func send(_ bytes: Data) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { throw DaemonError("send: errno \(errno)") }
            offset += sent
        }
    }

    /// Sends `GET path` (HTTP/1.0, so the server closes after the answer) with `headers`.
    func sendGet(_ path: String, headers: [String: String] = [:]) throws {
        var request = "GET \(path) HTTP/1.0\r\nHost: 127.0.0.1\r\nUser-Agent: aubade-tests\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) { request += "\(name): \(value)\r\n" }
        try send(Data((request + "\r\n").utf8))
    }

    /// Reads up to the blank line that ends the headers (at most 1 MiB); the body stays buffered.
    func readHead() throws -> Head {
        let end = Data("\r\n\r\n".utf8)
        while pending.range(of: end) == nil {
            guard pending.count < 1 << 20 else { throw DaemonError("no end of headers within 1 MiB") }
            guard try fill() else { throw DaemonError("connection closed before the end of the headers: \(text(pending))") }
        }
        let range = pending.range(of: end)!
        let lines = text(pending[pending.startIndex..<range.lowerBound]).components(separatedBy: "\r\n")
        pending = Data(pending[range.upperBound...])
        let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return Head(statusLine: lines.first ?? "", headers: headers)
    }

    /// Exactly `count` bytes; throws if the connection ends first.
    func read(exactly count: Int) throws -> Data {
        while pending.count < count {
            guard try fill() else { throw DaemonError("connection closed after \(pending.count) of \(count) bytes") }
        }
        let bytes = Data(pending.prefix(count))
        pending = Data(pending.dropFirst(count))
        return bytes
    }

    /// Everything until the server closes (at most `limit` bytes).
    func readToEnd(limit: Int = 64 << 20) throws -> Data {
        while pending.count < limit, try fill() {}
        defer { pending = Data() }
        return Data(pending.prefix(limit))
    }

    /// What one read() brings (empty at end of stream), past what is buffered; throws when
    /// nothing came within the timeout: for a stream read as it comes (server-sent events).
    func readSome() throws -> Data {
        if !pending.isEmpty {
            defer { pending = Data() }
            return pending
        }
        guard try fill() else { return Data() }
        defer { pending = Data() }
        return pending
    }

    /// One read(); false at end of stream.
    private func fill() throws -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let got = Glibc.read(descriptor, &buffer, buffer.count)
        if got < 0 { throw DaemonError(errno == EAGAIN ? "read timed out" : "read: errno \(errno)") }
        pending.append(contentsOf: buffer[0..<got])
        return got > 0
    }

    private func text(_ bytes: Data) -> String { String(decoding: bytes, as: UTF8.self) }

    /// `GET path` on a fresh connection: the head and the whole body.
    static func get(port: Int, _ path: String, headers: [String: String] = [:],
                    timeout: TimeInterval = 5) throws -> (head: Head, body: Data) {
        let connection = try RawHTTPConnection(port: port, timeout: timeout)
        try connection.sendGet(path, headers: headers)
        let head = try connection.readHead()
        return (head, try connection.readToEnd())
    }

    /// `POST path` with a JSON body on a fresh connection (HTTP/1.0, as the page's own origin
    /// would: `Host` this machine, no `Origin`): the head and the whole body.
    static func postJSON(port: Int, _ path: String, _ json: String, timeout: TimeInterval = 10) throws -> (head: Head, body: Data) {
        let connection = try RawHTTPConnection(port: port, timeout: timeout)
        let body = Data(json.utf8)
        try connection.send(Data(("POST \(path) HTTP/1.0\r\nHost: 127.0.0.1:\(port)\r\nUser-Agent: aubade-tests\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n").utf8) + body)
        let head = try connection.readHead()
        return (head, try connection.readToEnd())
    }

    /// The `Authorization` header value of HTTP basic auth.
    static func basicAuth(user: String, password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }
}

/// The metadata blocks of an ICY stream (SHOUTcast v1, icecast with `Icy-MetaData: 1`): after
/// every `metaint` bytes of audio, one length byte N, then N × 16 bytes of text padded with NULs.
struct ICYReader {
    let connection: RawHTTPConnection
    let metaint: Int

    /// The next block: the audio before it and its text (raw bytes, padding removed; empty when
    /// the server repeated the previous title by sending a zero length byte).
    func next() throws -> (audio: Data, metadata: Data) {
        let audio = try connection.read(exactly: metaint)
        let length = Int(try connection.read(exactly: 1)[0]) * 16
        var metadata = try connection.read(exactly: length)
        while metadata.last == 0 { metadata.removeLast() }
        return (audio, metadata)
    }

    /// The title in a `StreamTitle='…';` block, as raw bytes (nil when there is none).
    static func streamTitle(in metadata: Data) -> Data? {
        let start = Data("StreamTitle='".utf8)
        guard let open = metadata.range(of: start) else { return nil }
        let rest = metadata[open.upperBound...]
        let end = rest.range(of: Data("';".utf8))?.lowerBound ?? rest.endIndex
        return Data(rest[rest.startIndex..<end])
    }
}

/// TCP on 127.0.0.1.
enum Loopback {
    static func address(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// A port no one listens on right now, from the kernel (bind to port 0). A server started on
    /// it soon after gets it unless another process binds it in between: callers retry.
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonError("socket(): errno \(errno)") }
        defer { Glibc.close(descriptor) }
        var address = address(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard bound else { throw DaemonError("bind to 127.0.0.1:0: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

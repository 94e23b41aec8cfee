import Foundation

/// A JSON-RPC client of snapserver's control port (TCP, one JSON object a line), as Snapdroid
/// or a home-automation script is: requests with their responses, and every notification
/// (`Stream.OnProperties`, `Server.OnUpdate`…) kept with its arrival time.
final class SnapcastRPC: @unchecked Sendable {
    struct Notification {
        var method: String
        var params: [String: Any]
        var time: Date
    }

    private let descriptor: Int32
    private let condition = NSCondition()
    private var responses: [Int: [String: Any]] = [:]
    private var received: [Notification] = []
    private var closed = false
    private var nextID = 1

    let port: Int

    init(port: Int) throws {
        self.port = port
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw DaemonError("socket(): errno \(errno)") }
        var address = Loopback.address(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            Glibc.close(descriptor)
            throw DaemonError("connect to 127.0.0.1:\(port): errno \(errno)")
        }
        let thread = Thread { [self] in readLoop() }
        thread.start()
    }

    deinit { close() }

    func close() {
        condition.withLock {
            if !closed { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Sends a request and waits for its response's `result` (throws its `error`).
    @discardableResult
    func call(_ method: String, _ params: [String: Any]? = nil, timeout: TimeInterval = 10) throws -> Any {
        let id = condition.withLock { () -> Int in
            nextID += 1
            return nextID
        }
        var request: [String: Any] = ["jsonrpc": "2.0", "id": id, "method": method]
        if let params { request["params"] = params }
        var line = try JSONSerialization.data(withJSONObject: request)
        line.append(contentsOf: [0x0D, 0x0A])
        let sent = line.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == line.count else { throw DaemonError("sending \(method) to snapserver failed") }
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while responses[id] == nil, !closed {
            if !condition.wait(until: deadline) { break }
        }
        guard let response = responses.removeValue(forKey: id) else {
            throw DaemonError("no answer from snapserver to \(method) within \(timeout) s")
        }
        if let error = response["error"] { throw DaemonError("\(method): snapserver answered \(error)") }
        return response["result"] ?? NSNull()
    }

    /// `Stream.Control` of Aubade's stream.
    func control(_ command: String, _ params: [String: Any]? = nil) throws {
        var arguments: [String: Any] = ["id": PrivateSnapserver.streamName, "command": command]
        if let params { arguments["params"] = params }
        try call("Stream.Control", arguments)
    }

    /// `Stream.SetProperty` of Aubade's stream.
    func setProperty(_ property: String, _ value: Any) throws {
        try call("Stream.SetProperty", ["id": PrivateSnapserver.streamName, "property": property, "value": value])
    }

    /// Aubade's stream as `Server.GetStatus` describes it.
    func stream() throws -> [String: Any] {
        let status = try call("Server.GetStatus") as? [String: Any]
        let streams = (status?["server"] as? [String: Any])?["streams"] as? [[String: Any]] ?? []
        guard let stream = streams.first(where: { $0["id"] as? String == PrivateSnapserver.streamName }) else {
            throw DaemonError("no stream \(PrivateSnapserver.streamName) in Server.GetStatus: \(streams)")
        }
        return stream
    }

    var notifications: [Notification] { condition.withLock { received } }

    /// The server has not closed the connection.
    var isOpen: Bool { condition.withLock { !closed } }

    /// The first `Stream.OnProperties` of Aubade's stream after the `after`-th notification
    /// whose properties satisfy `match`.
    func waitForProperties(after: Int, timeout: TimeInterval = 5, where match: ([String: Any]) -> Bool) -> Notification? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let hit = received.dropFirst(after).first(where: { note in
                note.method == "Stream.OnProperties" && note.params["id"] as? String == PrivateSnapserver.streamName
                    && (note.params["properties"] as? [String: Any]).map(match) == true
            }) {
                return hit
            }
            if closed || !condition.wait(until: deadline) { return nil }
        }
    }

    private func readLoop() {
        var buffer = Data()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            buffer.append(contentsOf: chunk[0..<count])
            while let newline = buffer.firstIndex(of: 0x0A) {
                let line = buffer[buffer.startIndex..<newline]
                buffer.removeSubrange(buffer.startIndex...newline)
                guard let object = try? JSONSerialization.jsonObject(with: line) as? [String: Any] else { continue }
                let now = Date()
                condition.withLock {
                    if let id = object["id"] as? Int {
                        responses[id] = object
                    } else if let method = object["method"] as? String {
                        received.append(Notification(method: method, params: object["params"] as? [String: Any] ?? [:], time: now))
                    }
                    condition.broadcast()
                }
            }
        }
        condition.withLock {
            closed = true
            condition.broadcast()
        }
        Glibc.close(descriptor)
    }
}

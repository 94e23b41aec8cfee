import Foundation
import JSON
import SnapcastRooms
import Testing
import TestSupport

/// A snapserver of the test's own on 127.0.0.1 (port 0): the test reads what the client asks
/// and answers line by line, junk included.
final class ScriptedSnapserver: @unchecked Sendable {
    let listener: Int32
    let port: Int

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard bound, listen(listener, 4) == 0 else { throw RoomsProblem("cannot listen: errno \(errno)") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(listener) }

    /// The next connection, within `timeout` seconds.
    func accept(timeout: Double = 10) throws -> Peer {
        var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        guard poll(&descriptor, 1, Int32(timeout * 1000)) == 1 else { throw RoomsProblem("no connection within \(timeout) s") }
        let peer = Glibc.accept(listener, nil, nil)
        guard peer >= 0 else { throw RoomsProblem("accept: errno \(errno)") }
        return Peer(peer)
    }

    final class Peer {
        let descriptor: Int32
        private var buffer: [UInt8] = []

        init(_ descriptor: Int32) {
            self.descriptor = descriptor
            var wait = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        }

        deinit { close(descriptor) }

        func send(_ text: String) { send(Array(text.utf8)) }

        func send(_ bytes: [UInt8]) {
            var offset = 0
            while offset < bytes.count {
                let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard sent > 0 else { return }
                offset += sent
            }
        }

        /// The next request, parsed.
        func request() throws -> (id: Int64, method: String, params: JSONValue?) {
            while true {
                if let newline = buffer.firstIndex(of: 0x0A) {
                    let line = Array(buffer[..<newline])
                    buffer.removeSubrange(...newline)
                    let value = try JSONText.parse(line)
                    guard case .integer(let id)? = value["id"], let method = value["method"]?.string else {
                        throw RoomsProblem("not a request: \(String(decoding: line, as: UTF8.self))")
                    }
                    return (id, method, value["params"])
                }
                var chunk = [UInt8](repeating: 0, count: 4096)
                let count = recv(descriptor, &chunk, chunk.count, 0)
                guard count > 0 else { throw RoomsProblem("the client sent nothing more") }
                buffer += chunk[..<count]
            }
        }

        func hangUp() { shutdown(descriptor, Int32(SHUT_RDWR)) }
    }
}

/// What the client logged and told, kept for the test.
final class Recorder: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []
    private var changes: [[SnapcastRoom]?] = []

    func log(_ level: SnapcastRoomsClient.Level, _ line: String) { condition.withLock { lines.append(line) } }

    func changed(_ rooms: [SnapcastRoom]?) {
        condition.withLock {
            changes.append(rooms)
            condition.broadcast()
        }
    }

    var logged: [String] { condition.withLock { lines } }
    var told: [[SnapcastRoom]?] { condition.withLock { changes } }

    /// Waits until the last change told matches.
    func waitFor(timeout: Double = 10, _ match: ([SnapcastRoom]?) -> Bool) -> Bool {
        // Under a sanitizer the client's byte-by-byte reading of megabytes is many times slower.
        let deadline = Date(timeIntervalSinceNow: Sanitizer.scaled(timeout))
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let last = changes.last, match(last) { return true }
            if !condition.wait(until: deadline) { return false }
        }
    }
}

@Suite(.serialized) struct SnapcastRoomsClientTests {
    static func status(_ clients: [String]) -> String {
        #"{"server":{"groups":[{"clients":[\#(clients.joined(separator: ","))],"id":"g","stream_id":"Aubade"}],"#
            + #""streams":[{"id":"Aubade","uri":{"path":"/tmp/fifo","raw":"pipe:///tmp/fifo?name=Aubade"}}]}}"#
    }

    static func client(_ id: String, percent: Int = 50, muted: Bool = false) -> String {
        #"{"id":"\#(id)","connected":true,"host":{"name":"\#(id)"},"config":{"name":"","volume":{"percent":\#(percent),"muted":\#(muted)}}}"#
    }

    func start(_ server: ScriptedSnapserver, _ recorder: Recorder) -> SnapcastRoomsClient {
        let client = SnapcastRoomsClient(host: "127.0.0.1", port: server.port, streamPath: "/tmp/fifo") { recorder.log($0, $1) }
        client.onChange { recorder.changed($0) }
        client.start()
        return client
    }

    @Test func hostileLinesAreLoggedAndSkippedAndTheGoodOnesStillRead() throws {
        let server = try ScriptedSnapserver()
        let recorder = Recorder()
        let client = start(server, recorder)
        defer { client.stop() }
        let peer = try server.accept()
        let ask = try peer.request()
        #expect(ask.method == "Server.GetStatus")
        // Junk first: a line that is no JSON, past 1 MiB without a newline (then one), nesting far too
        // deep, a response for no request, odd types, a status that is none.
        peer.send("not json\n")
        peer.send([UInt8](repeating: UInt8(ascii: "x"), count: (1 << 20) + 4096) + [0x0A])
        peer.send(String(repeating: "[", count: 50_000) + "\n")
        peer.send(#"{"id":999,"result":{}}"# + "\n" + #"{"id":"7","result":{}}"# + "\n" + #"{"method":["x"]}"# + "\n")
        peer.send(#"{"jsonrpc":"2.0","method":"Client.OnVolumeChanged","params":{"id":"kitchen","volume":{"percent":"loud"}}}"# + "\n")
        // Then the answer: the rooms are known.
        peer.send(#"{"id":\#(ask.id),"jsonrpc":"2.0","result":\#(Self.status([Self.client("kitchen"), Self.client("garden", muted: true)]))}"# + "\r\n")
        #expect(recorder.waitFor { $0?.map(\.id) == ["garden", "kitchen"] })
        #expect(client.rooms?.count == 2)
        let logged = recorder.logged
        #expect(logged.contains { $0.contains("not JSON") })
        #expect(logged.contains { $0.contains("longer than 1048576 bytes") })
        #expect(logged.contains { $0.contains("nested deeper") })
        #expect(logged.allSatisfy { $0.count < 400 }, "a log line repeats what the server sent")
        // A flood of junk: at most ten lines for the connection.
        peer.send(String(repeating: "junk\n", count: 2_000))
        peer.send(#"{"jsonrpc":"2.0","method":"Client.OnVolumeChanged","params":{"id":"kitchen","volume":{"percent":12,"muted":false}}}"# + "\n")
        #expect(recorder.waitFor { $0?.first { $0.id == "kitchen" }?.percent == 12 })
        #expect(recorder.logged.filter { $0.contains("snapserver sent") }.count == SnapcastRoomsClient.problemsLogged)
    }

    @Test func aRoomIsSetAndTheAnswerIsItsNewVolume() throws {
        let server = try ScriptedSnapserver()
        let recorder = Recorder()
        let client = start(server, recorder)
        defer { client.stop() }
        let peer = try server.accept()
        let ask = try peer.request()
        peer.send(#"{"id":\#(ask.id),"jsonrpc":"2.0","result":\#(Self.status([Self.client("kitchen", percent: 80, muted: true)]))}"# + "\n")
        #expect(recorder.waitFor { $0?.count == 1 })

        let done = DispatchSemaphore(value: 0)
        let outcome = LockedOutcome()
        client.set(id: "kitchen", percent: 30, muted: nil) { result in
            outcome.value = result
            done.signal()
        }
        let set = try peer.request()
        #expect(set.method == "Client.SetVolume")
        #expect(set.params == (try JSONText.parse(#"{"id":"kitchen","volume":{"muted":true,"percent":30}}"#)))
        peer.send(#"{"id":\#(set.id),"jsonrpc":"2.0","result":{"volume":{"muted":true,"percent":30}}}"# + "\n")
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(outcome.value.map { if case .success = $0 { true } else { false } } == true)
        #expect(recorder.waitFor { $0?.first?.percent == 30 })

        // Refused by the server: said so.
        client.set(id: "kitchen", percent: nil, muted: false) { result in
            outcome.value = result
            done.signal()
        }
        let refused = try peer.request()
        peer.send(#"{"id":\#(refused.id),"jsonrpc":"2.0","error":{"code":-32603,"message":"Client not found"}}"# + "\n")
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(outcome.value.map { if case .failure(.failed(let why)) = $0 { why.contains("Client not found") } else { false } } == true)

        // No such room: refused without asking the server.
        client.set(id: "attic", percent: 10, muted: nil) { result in
            outcome.value = result
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(outcome.value.map { if case .failure(.unavailable) = $0 { true } else { false } } == true)
    }

    @Test func aServerThatGoesAwayIsConnectedToAgain() throws {
        let server = try ScriptedSnapserver()
        let recorder = Recorder()
        let client = start(server, recorder)
        defer { client.stop() }
        var peer = try server.accept()
        var ask = try peer.request()
        peer.send(#"{"id":\#(ask.id),"result":\#(Self.status([Self.client("kitchen")]))}"# + "\n")
        #expect(recorder.waitFor { $0?.count == 1 })

        peer.hangUp()
        #expect(recorder.waitFor { $0 == nil }, "the rooms were not forgotten when the server went away")
        let done = DispatchSemaphore(value: 0)
        let outcome = LockedOutcome()
        client.set(id: "kitchen", percent: 10, muted: nil) { result in
            outcome.value = result
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 5) == .success)
        #expect(outcome.value.map { if case .failure(.unavailable) = $0 { true } else { false } } == true)

        peer = try server.accept(timeout: 5)
        ask = try peer.request()
        #expect(ask.method == "Server.GetStatus")
        peer.send(#"{"id":\#(ask.id),"result":\#(Self.status([Self.client("kitchen"), Self.client("porch")]))}"# + "\n")
        #expect(recorder.waitFor { $0?.count == 2 })
        #expect(recorder.logged.filter { $0.contains("rooms: connected") }.count == 2)
    }
}

final class LockedOutcome: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Result<Void, SnapcastRoomsClient.SetError>?
    var value: Result<Void, SnapcastRoomsClient.SetError>? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}

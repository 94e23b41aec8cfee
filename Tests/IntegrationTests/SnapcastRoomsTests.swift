import Foundation
import XCTest
@testable import TestSupport

/// The page's rooms with `output = snapcast`: the real snapserver and two real snapclients
/// (`kitchen`, `garden`), `aubade serve` serving the page on a free port, and the test's own
/// JSON-RPC client of the server to check what the page says against what snapserver says.
final class SnapcastRoomsTests: SnapcastTestCase {
    private var webPort = 0
    private var aubade: Daemon?

    /// `aubade serve` into the private snapserver (no music: the rooms need none), the page on.
    private func startAubadeWithPage() throws {
        webPort = try Loopback.freePort()
        let configuration = try snapserver.aubadeConfiguration(extra: "snapcast-control = 127.0.0.1:\(snapserver.controlPort)")
        // The test's --http-address and --http-port come after the harness's `none`: they win.
        aubade = try startDaemon(["--config", configuration.path, "--http-address", "127.0.0.1", "--http-port", "\(webPort)"])
        // The page is served a moment after the bus name is owned.
        try eventually("the page served on port \(webPort)", timeout: 10) { (try? roomsDocument()) != nil }
    }

    private func roomsDocument() throws -> [String: Any] {
        let (head, body) = try RawHTTPConnection.get(port: webPort, "/api/rooms", headers: ["Host": "127.0.0.1:\(webPort)"])
        XCTAssertEqual(head.status, 200)
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }

    private func room(_ id: String, in document: [String: Any]) -> [String: Any]? {
        (document["items"] as? [[String: Any]])?.first { $0["id"] as? String == id }
    }

    /// A client's volume as snapserver's own `Server.GetStatus` says.
    private func serverVolume(_ id: String) throws -> (percent: Int, muted: Bool)? {
        let status = try controlClient().call("Server.GetStatus") as? [String: Any]
        let groups = (status?["server"] as? [String: Any])?["groups"] as? [[String: Any]] ?? []
        guard let client = groups.flatMap({ $0["clients"] as? [[String: Any]] ?? [] }).first(where: { $0["id"] as? String == id }),
              let volume = (client["config"] as? [String: Any])?["volume"] as? [String: Any],
              let percent = volume["percent"] as? Int, let muted = volume["muted"] as? Bool else { return nil }
        return (percent, muted)
    }

    private func post(_ json: String) throws -> (status: Int?, body: String) {
        let (head, body) = try RawHTTPConnection.postJSON(port: webPort, "/api/rooms", json)
        return (head.status, String(decoding: body, as: UTF8.self))
    }

    func testThePageListsTheRoomsAndSetsTheirVolumeAndMute() throws {
        try openRooms()
        try waitForRooms()
        try startAubadeWithPage()
        let events = try PageEvents(port: webPort)
        defer { events.close() }

        var document: [String: Any] = [:]
        try eventually("GET /api/rooms lists the kitchen and the garden, connected", timeout: 10) {
            document = try roomsDocument()
            return ["kitchen", "garden"].allSatisfy { room($0, in: document)?["connected"] as? Bool == true }
        }
        print("GET /api/rooms: \(document)")
        XCTAssertEqual(document["available"] as? Bool, true)
        XCTAssertEqual((document["items"] as? [Any])?.count, 2)
        // No name given in snapserver: its host's, as Snapweb shows it. Named there: that name.
        XCTAssertEqual((room("kitchen", in: document)?["name"] as? String)?.isEmpty, false)
        try controlClient().call("Client.SetName", ["id": "kitchen", "name": "Kitchen"])
        try eventually("the kitchen named Kitchen on the page") { room("kitchen", in: try roomsDocument())?["name"] as? String == "Kitchen" }
        XCTAssertNotNil(room("kitchen", in: document)?["volume"] as? Double)

        // The page's changes: snapserver's own status shows them.
        var answer = try post(#"{"id":"kitchen","volume":0.3}"#)
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertEqual(try serverVolume("kitchen")?.percent, 30)
        answer = try post(#"{"id":"garden","muted":true}"#)
        XCTAssertEqual(answer.status, 200, answer.body)
        XCTAssertEqual(try serverVolume("garden")?.muted, true)
        XCTAssertEqual(try serverVolume("kitchen")?.muted, false, "the kitchen's mute changed with its volume")
        try eventually("GET /api/rooms shows both changes") {
            let now = try roomsDocument()
            return room("kitchen", in: now)?["volume"] as? Double == 0.3 && room("garden", in: now)?["muted"] as? Bool == true
        }

        // Bad changes: refused, in words, and nothing changes on the server.
        for (json, status) in [(#"{"id":"attic","volume":0.5}"#, 404), (#"{"id":"kitchen","volume":1.5}"#, 400),
                               (#"{"id":"kitchen","muted":"yes"}"#, 400), (#"{"id":"kitchen"}"#, 400), (#"{"volume":0.5}"#, 400)] {
            let refused = try post(json)
            XCTAssertEqual(refused.status, status, "\(json): \(refused.body)")
            XCTAssertTrue(refused.body.hasPrefix(#"{"error":"#), refused.body)
        }
        XCTAssertEqual(try serverVolume("kitchen")?.percent, 30)

        // A change made through snapserver (Snapweb, Snapdroid): the page hears it, as an event.
        let mark = events.count
        try controlClient().call("Client.SetVolume", ["id": "garden", "volume": ["percent": 65, "muted": false]])
        try eventually("GET /api/rooms shows the garden at 0.65, not muted") {
            let now = try roomsDocument()
            return room("garden", in: now)?["volume"] as? Double == 0.65 && room("garden", in: now)?["muted"] as? Bool == false
        }
        let event = events.waitFor(after: mark, timeout: 5) { event in
            event.name == "rooms" && (event.json?["items"] as? [[String: Any]])?
                .contains { $0["id"] as? String == "garden" && $0["volume"] as? Double == 0.65 } == true
        }
        XCTAssertNotNil(event, "no rooms event with the garden at 0.65; events: \(events.names)")
        XCTAssertEqual(events.all.first?.name, "snapshot")
        XCTAssertTrue(events.names.contains("rooms"), "the stream's first rooms event, after the snapshot")
    }

    func testTheRoomsComeBackWhenSnapserverRestarts() throws {
        try openRooms()
        try waitForRooms()
        try startAubadeWithPage()
        try eventually("both rooms on the page", timeout: 10) {
            let document = try roomsDocument()
            return room("kitchen", in: document) != nil && room("garden", in: document) != nil
        }
        XCTAssertEqual(try post(#"{"id":"kitchen","volume":0.42}"#).status, 200)

        snapserver.stop()
        try eventually("the page says the rooms cannot be reached", timeout: 5) {
            let document = try roomsDocument()
            return document["reachable"] as? Bool == false && (document["items"] as? [Any])?.isEmpty == true
                && document["available"] as? Bool == true
        }
        XCTAssertEqual(try post(#"{"id":"kitchen","volume":0.5}"#).status, 503, "a change while snapserver is away")

        try snapserver.start()
        try reconnectRooms()
        // Aubade connects again by itself (backing off: within its 10 s at most, in practice 1 s).
        try eventually("both rooms back on the page, connected, the kitchen's volume kept", timeout: 15) {
            let document = try roomsDocument()
            return ["kitchen", "garden"].allSatisfy { room($0, in: document)?["connected"] as? Bool == true }
                && room("kitchen", in: document)?["volume"] as? Double == 0.42
        }
        XCTAssertEqual(try post(#"{"id":"garden","volume":0.2}"#).status, 200)
        XCTAssertEqual(try serverVolume("garden")?.percent, 20)
        let connections = aubade?.stderrLines.filter { $0.contains("rooms: connected to snapserver's control port") } ?? []
        XCTAssertEqual(connections.count, 2, "a log line for each connection")
    }
}

/// The page's event stream (`GET /api/events`) read on a thread of its own, every event kept.
private final class PageEvents: @unchecked Sendable {
    struct Event {
        var name: String
        var data: String
        var json: [String: Any]? { try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any] }
    }

    private let connection: RawHTTPConnection
    private let condition = NSCondition()
    private var events: [Event] = []
    private var closed = false

    init(port: Int) throws {
        connection = try RawHTTPConnection(port: port, timeout: 1)
        try connection.sendGet("/api/events", headers: ["Host": "127.0.0.1:\(port)"])
        let head = try connection.readHead()
        guard head.status == 200 else { throw DaemonError("GET /api/events: \(head.statusLine)") }
        Thread { [self] in read() }.start()
    }

    private func read() {
        var text = ""
        while !condition.withLock({ closed }) {
            guard let bytes = try? connection.readSome() else { continue }  // a second without events
            if bytes.isEmpty { break }
            text += String(decoding: bytes, as: UTF8.self)
            while let end = text.range(of: "\n\n") {
                let block = text[..<end.lowerBound]
                text = String(text[end.upperBound...])
                var name = "message", data = ""
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event:") { name = line.dropFirst(6).trimmingCharacters(in: .whitespaces) }
                    if line.hasPrefix("data:") { data += line.dropFirst(5).trimmingCharacters(in: .whitespaces) }
                }
                if block.hasPrefix(":") { continue }  // a comment: the stream's keep-alive
                condition.withLock {
                    events.append(Event(name: name, data: data))
                    condition.broadcast()
                }
            }
        }
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    var all: [Event] { condition.withLock { events } }
    var count: Int { all.count }
    var names: [String] { all.map(\.name) }

    /// The first event after the `after`-th that matches.
    func waitFor(after: Int, timeout: TimeInterval, _ match: (Event) -> Bool) -> Event? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let hit = events.dropFirst(after).first(where: match) { return hit }
            if closed || !condition.wait(until: deadline) { return nil }
        }
    }

    func close() {
        condition.withLock { closed = true }
    }
}

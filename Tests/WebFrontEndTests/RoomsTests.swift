import Foundation
import Testing
@testable import WebFrontEnd

/// A `RoomsControl` of the test's own: the rooms it is given, the changes asked of it, answered
/// as told.
final class FakeRooms: RoomsControl, @unchecked Sendable {
    private let lock = NSLock()
    private var list: [RoomFacts]?
    private var handler: (@Sendable ([RoomFacts]?) -> Void)?
    private(set) var asked: [(id: String, volume: Double?, muted: Bool?)] = []
    var answer: Result<Void, RoomsControlError> = .success(())

    init(_ rooms: [RoomFacts]?) { list = rooms }

    var currentRooms: [RoomFacts]? { lock.withLock { list } }

    func setRoom(id: String, volume: Double?, muted: Bool?, completion: @escaping @Sendable (Result<Void, RoomsControlError>) -> Void) {
        let answer = lock.withLock {
            asked.append((id, volume, muted))
            return self.answer
        }
        completion(answer)
    }

    func observeRooms(_ handler: @escaping @Sendable ([RoomFacts]?) -> Void) { lock.withLock { self.handler = handler } }

    /// The rooms change (as a Snapcast notification would make them).
    func change(to rooms: [RoomFacts]?) {
        let handler = lock.withLock {
            list = rooms
            return self.handler
        }
        handler?(rooms)
    }

    var requests: [(id: String, volume: Double?, muted: Bool?)] { lock.withLock { asked } }
}

@Suite struct RoomsTests {
    static let house = [RoomFacts(id: "kitchen", name: "Kitchen", volume: 0.5, muted: false, connected: true),
                        RoomFacts(id: "garden", name: "Garden", volume: 1, muted: true, connected: false)]

    func harness(_ rooms: [RoomFacts]? = house) -> (WebHarness, FakeRooms) {
        let harness = WebHarness()
        let control = FakeRooms(rooms)
        harness.frontEnd.attachRooms(control)
        harness.frontEnd.queue.sync {}
        return (harness, control)
    }

    @Test func withoutSnapcastThereAreNoRooms() {
        let harness = WebHarness()
        let document = harness.document("/api/rooms")
        #expect(document["available"] as? Bool == false)
        #expect((document["items"] as? [Any])?.isEmpty == true)
        #expect(harness.send("POST", "/api/rooms", json: #"{"id":"kitchen","volume":0.5}"#)?.status == 404)
    }

    @Test func theRoomsAreListedAndChangesPushedAsEvents() throws {
        let (harness, control) = harness()
        let document = harness.document("/api/rooms")
        #expect(document["available"] as? Bool == true)
        #expect(document["reachable"] as? Bool == true)
        let items = try #require(document["items"] as? [[String: Any]])
        #expect(items.map { $0["id"] as? String } == ["kitchen", "garden"])
        #expect(items[0]["name"] as? String == "Kitchen")
        #expect(items[0]["volume"] as? Double == 0.5)
        #expect(items[1]["muted"] as? Bool == true)
        #expect(items[1]["connected"] as? Bool == false)

        let sink = RecordingSink()
        _ = harness.send("GET", "/api/events", sink: sink)
        #expect(sink.all.map(\.event) == ["snapshot", "rooms"])
        var changed = Self.house
        changed[0].volume = 0.25
        control.change(to: changed)
        harness.frontEnd.queue.sync {}
        #expect(sink.all.map(\.event) == ["snapshot", "rooms", "rooms"])
        #expect(sink.all.last?.data.contains(#""volume":0.25"#) == true)
        // The same rooms again: nothing pushed.
        control.change(to: changed)
        harness.frontEnd.queue.sync {}
        #expect(sink.all.count == 3)
        // Their server gone: reachable false, no rooms, pushed.
        control.change(to: nil)
        harness.frontEnd.queue.sync {}
        #expect(sink.all.last?.data == #"{"available":true,"reachable":false,"items":[]}"#)
        #expect(harness.send("POST", "/api/rooms", json: #"{"id":"kitchen","volume":0.5}"#)?.status == 503)
    }

    @Test func changesAreCheckedThenAskedOfTheRooms() {
        let (harness, control) = harness()
        #expect(harness.send("POST", "/api/rooms", json: #"{"id":"kitchen","volume":0.75}"#)?.status == 200)
        #expect(harness.send("POST", "/api/rooms", json: #"{"id":"garden","muted":false}"#)?.status == 200)
        #expect(harness.send("POST", "/api/rooms", json: #"{"id":"garden","volume":0,"muted":true}"#)?.status == 200)
        let asked = control.requests
        #expect(asked.count == 3)
        #expect(asked.map(\.id) == ["kitchen", "garden", "garden"])
        #expect(asked[0].volume == 0.75 && asked[0].muted == nil)
        #expect(asked[1].volume == nil && asked[1].muted == false)
        #expect(asked[2].volume == 0 && asked[2].muted == true)

        let cases: [(String, Int)] = [
            (#"{"id":"attic","volume":0.5}"#, 404),
            (#"{"id":"kitchen","volume":1.01}"#, 400),
            (#"{"id":"kitchen","volume":-0.1}"#, 400),
            (#"{"id":"kitchen","volume":"loud"}"#, 400),
            (#"{"id":"kitchen","muted":1}"#, 400),
            (#"{"id":"kitchen","muted":null}"#, 400),
            (#"{"id":"kitchen"}"#, 400),
            (#"{"id":7,"volume":0.5}"#, 400),
            (#"{"volume":0.5}"#, 400),
            (#"{"id":"kitchen","volume":1e999}"#, 400),
        ]
        for (body, status) in cases {
            let response = harness.send("POST", "/api/rooms", json: body)
            #expect(response?.status == status, "\(body)")
            #expect(response.map { String(decoding: $0.body, as: UTF8.self).hasPrefix(#"{"error":"#) } == true, "\(body)")
        }
        #expect(control.requests.count == 3, "a refused change reached the rooms")

        control.answer = .failure(.failed("Client not found"))
        let failed = harness.send("POST", "/api/rooms", json: #"{"id":"kitchen","volume":0.5}"#)
        #expect(failed?.status == 502)
        #expect(failed.map { String(decoding: $0.body, as: UTF8.self).contains("Client not found") } == true)
        control.answer = .failure(.unavailable("snapserver is not reached"))
        #expect(harness.send("POST", "/api/rooms", json: #"{"id":"kitchen","volume":0.5}"#)?.status == 503)
    }
}

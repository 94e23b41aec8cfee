import Foundation
import PlayerCore
import Testing
@testable import WebFrontEnd

/// The API on a real `PlayerState`: requests become events, every turn reaches the open pages,
/// bad requests change nothing.
@Suite struct WebFrontEndTests {
    @Test func aToggleFromThePagePlaysAndEveryPageHearsIt() throws {
        let harness = WebHarness(tracks: [tone("a", title: "First"), tone("b", title: "Second")])
        let sink = RecordingSink()
        _ = harness.send("GET", "/api/events", sink: sink)
        #expect(sink.all.first?.event == "snapshot")
        let response = harness.send("POST", "/api/player", json: #"{"action":"toggle"}"#)
        #expect(response?.status == 200)
        #expect(harness.host.recordedEvents.last == .playPause)
        let state = harness.state()
        #expect(state["status"] as? String == "playing")
        #expect((state["current"] as? [String: Any])?["title"] as? String == "First")
        let states = sink.all.filter { $0.event == "state" }
        #expect(states.count == 1)
        #expect(states.last?.data.contains(#""status":"playing""#) == true)
    }

    @Test func badRequestsAreRefusedInWordsAndChangeNothing() {
        let harness = WebHarness(tracks: [tone("a", title: "First")])
        let before = harness.host.recordedEvents.count
        let cases: [(String, String, Int)] = [
            ("/api/player", "not json", 400),
            ("/api/player", "[1,2]", 400),
            ("/api/player", #"{"action":"explode"}"#, 400),
            ("/api/player", #"{"action":"volume","volume":7}"#, 400),
            ("/api/player", #"{"action":"seek","position":-1}"#, 400),
            ("/api/player", #"{"action":"loop","loop":"Forever"}"#, 400),
            ("/api/queue", #"{"action":"move","id":99999,"to":0}"#, 404),
            ("/api/queue", #"{"action":"remove","ids":["x"]}"#, 404),
            ("/api/queue", #"{"action":"save","name":"../../etc/passwd"}"#, 400),
            ("/api/queue", #"{"action":"add","uris":["../../etc/passwd"]}"#, 400),
            ("/api/stations", #"{"url":"file:///etc/passwd"}"#, 400),
            ("/api/nothing", "{}", 404),
            ("/api/player", String(repeating: "[", count: 10_000), 400),
        ]
        for (path, body, status) in cases {
            let response = harness.send("POST", path, json: body)
            #expect(response?.status == status, "\(path) \(body.prefix(40))")
            let text = response.map { String(decoding: $0.body, as: UTF8.self) } ?? ""
            #expect(text.hasPrefix(#"{"error":"#), "\(path): \(text)")
        }
        #expect(harness.host.recordedEvents.count == before)
    }

    @Test func aForeignOriginOrHostChangesNothing() {
        let harness = WebHarness(tracks: [tone("a", title: "First")])
        let before = harness.host.recordedEvents.count
        let foreign = harness.send("POST", "/api/player", json: #"{"action":"play"}"#,
                                   headers: ["host": "127.0.0.1:6680", "origin": "http://evil.example"])
        #expect(foreign?.status == 403)
        let rebound = harness.send("POST", "/api/player", json: #"{"action":"play"}"#, headers: ["host": "evil.example:6680"])
        #expect(rebound?.status == 403)
        #expect(harness.host.recordedEvents.count == before)
    }

    @Test func theTokenURLSetsACookieAndRedirects() throws {
        let settings = WebSettings(loopbackOnly: false, token: "abc123", port: 6680, output: "pulse", pageFolders: [])
        let harness = WebHarness(settings: settings)
        #expect(harness.send("GET", "/api/state", headers: ["host": "192.168.1.5:6680"])?.status == 401)
        let landing = try #require(harness.send("GET", "/", query: ["token": "abc123"], headers: ["host": "192.168.1.5:6680"]))
        #expect(landing.status == 303)
        #expect(landing.header("Location") == "/")
        #expect(landing.header("Set-Cookie")?.hasPrefix("aubade_token=abc123;") == true)
        #expect(landing.header("Set-Cookie")?.contains("HttpOnly") == true)
        let withCookie = harness.send("GET", "/api/state", headers: ["host": "192.168.1.5:6680", "cookie": "aubade_token=abc123"])
        #expect(withCookie?.status == 200)
    }

    @Test func theQueueIsPagedAndMovesAndRemovesByID() throws {
        let tracks = (0..<250).map { tone("t\($0)", title: "Track \($0)") }
        let harness = WebHarness(tracks: tracks)
        let page = try #require(harness.send("GET", "/api/queue", query: ["offset": "200", "limit": "100"]))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(page.body)) as? [String: Any])
        #expect(document["total"] as? Int == 250)
        let items = try #require(document["items"] as? [[String: Any]])
        #expect(items.count == 50)
        #expect(items.first?["title"] as? String == "Track 200")
        let id = try #require(items.first?["id"] as? Int)
        #expect(harness.send("POST", "/api/queue", json: #"{"action":"move","id":\#(id),"to":0}"#)?.status == 200)
        let first = try #require(harness.send("GET", "/api/queue", query: ["limit": "1"]))
        #expect(String(decoding: first.body, as: UTF8.self).contains("Track 200"))
        #expect(harness.send("POST", "/api/queue", json: #"{"action":"remove","ids":[\#(id)]}"#)?.status == 200)
        #expect(harness.send("GET", "/api/queue", query: ["limit": "0"])?.status == 400)
        #expect(harness.send("GET", "/api/queue", query: ["limit": "501"])?.status == 400)
        #expect(harness.send("GET", "/api/queue", query: ["offset": "-1"])?.status == 400)
        let after = try #require(try JSONSerialization.jsonObject(with: Data(harness.send("GET", "/api/queue")!.body)) as? [String: Any])
        #expect(after["total"] as? Int == 249)
    }

    @Test func aHostileTitleGoesOutAsTextInJSON() throws {
        let harness = WebHarness(tracks: [tone("x", title: "<img src=x onerror=alert(1)>\u{1}\"")])
        let response = try #require(harness.send("GET", "/api/queue"))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let items = try #require(document["items"] as? [[String: Any]])
        #expect(items.first?["title"] as? String == "<img src=x onerror=alert(1)>\u{1}\"")
    }

    @Test func tooManyChangesFromOneAddressAreRefused() {
        let harness = WebHarness(tracks: [tone("a", title: "First")])
        let statuses = (0..<80).map { _ in harness.send("POST", "/api/player", json: #"{"action":"toggle"}"#)?.status ?? 0 }
        #expect(statuses.prefix(60).allSatisfy { $0 == 200 })
        #expect(statuses.suffix(20).allSatisfy { $0 == 429 })
    }
}

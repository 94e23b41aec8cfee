import JSON
import SnapcastRooms
import Testing

/// snapserver's control port as `RoomsState` reads it: `Server.GetStatus` (0.26's shape), the
/// notifications, and hostile lines — each one a problem in words or a line ignored, never a
/// crash, never a room made up.
@Suite struct RoomsStateTests {
    static let pipe = "/run/snapserver/aubade.fifo"

    static func client(_ id: String, name: String = "", host: String? = nil, percent: String = "50", muted: String = "false",
                       connected: Bool = true) -> String {
        #"{"config":{"instance":1,"latency":0,"name":"\#(name)","volume":{"muted":\#(muted),"percent":\#(percent)}},"#
            + #""connected":\#(connected),"host":{"arch":"x86_64","ip":"127.0.0.1","mac":"00:00:00:00:00:00","name":"\#(host ?? id)","os":"Debian"},"#
            + #""id":"\#(id)","lastSeen":{"sec":1,"usec":2},"snapclient":{"name":"Snapclient","protocolVersion":2,"version":"0.26.0"}}"#
    }

    static func status(groups: [(stream: String, clients: [String])], path: String = pipe) -> String {
        let groupText = groups.enumerated().map { index, group in
            #"{"clients":[\#(group.clients.joined(separator: ","))],"id":"g\#(index)","muted":false,"name":"","stream_id":"\#(group.stream)"}"#
        }.joined(separator: ",")
        return #"{"server":{"groups":[\#(groupText)],"server":{"host":{"name":"house"},"snapserver":{"version":"0.26.0"}},"#
            + #""streams":[{"id":"Aubade","properties":{},"status":"idle","uri":{"fragment":"","host":"","path":"\#(path)","#
            + #""query":{"name":"Aubade"},"raw":"pipe://\#(path)?name=Aubade","scheme":"pipe"}},"#
            + #"{"id":"Radio","status":"idle","uri":{"path":"/tmp/radio","raw":"pipe:///tmp/radio","scheme":"pipe"}}]}}"#
    }

    static func json(_ text: String) -> JSONValue { (try? JSONText.parse(text)) ?? .null }

    func house() throws -> RoomsState {
        var state = RoomsState(streamPath: Self.pipe)
        let outcome = try state.applyStatus(Self.json(Self.status(groups: [
            ("Aubade", [Self.client("kitchen", percent: "70"), Self.client("garden", name: "Garden", muted: "true")]),
            ("Radio", [Self.client("attic")]),
        ])))
        #expect(outcome == .changed)
        return state
    }

    @Test func theRoomsAreTheClientsOfAubadesStreamSortedByName() throws {
        let state = try house()
        #expect(state.streamID == "Aubade")
        #expect(state.rooms == [
            SnapcastRoom(id: "garden", name: "Garden", percent: 50, muted: true, connected: true),
            SnapcastRoom(id: "kitchen", name: "kitchen", percent: 70, muted: false, connected: true),
        ])
        #expect(state.leftOut == nil)
    }

    @Test func withoutAStreamOnAubadesPipeEveryClientIsARoom() throws {
        var state = RoomsState(streamPath: "/elsewhere/fifo")
        _ = try state.applyStatus(Self.json(Self.status(groups: [("Aubade", [Self.client("kitchen")]), ("Radio", [Self.client("attic")])])))
        #expect(state.streamID == nil)
        #expect(state.rooms.map(\.id) == ["attic", "kitchen"])
        var unknown = RoomsState(streamPath: nil)
        _ = try unknown.applyStatus(Self.json(Self.status(groups: [("Aubade", [Self.client("kitchen")]), ("Radio", [Self.client("attic")])])))
        #expect(unknown.rooms.count == 2)
    }

    @Test func notificationsChangeTheRooms() throws {
        var state = try house()
        #expect(try state.apply(notification: "Client.OnVolumeChanged",
                                params: Self.json(#"{"id":"kitchen","volume":{"muted":true,"percent":20}}"#)) == .changed)
        #expect(state.rooms.first { $0.id == "kitchen" } == SnapcastRoom(id: "kitchen", name: "kitchen", percent: 20, muted: true, connected: true))
        // The same again: nothing to tell the pages.
        #expect(try state.apply(notification: "Client.OnVolumeChanged",
                                params: Self.json(#"{"id":"kitchen","volume":{"muted":true,"percent":20}}"#)) == .unchanged)
        #expect(try state.apply(notification: "Client.OnDisconnect", params: Self.json(#"{"id":"garden","client":\#(Self.client("garden", connected: false))}"#)) == .changed)
        #expect(state.rooms.first { $0.id == "garden" }?.connected == false)
        #expect(try state.apply(notification: "Client.OnConnect", params: Self.json(#"{"id":"garden","client":\#(Self.client("garden", name: "Garden"))}"#)) == .changed)
        #expect(state.rooms.first { $0.id == "garden" }?.connected == true)
        #expect(try state.apply(notification: "Client.OnNameChanged", params: Self.json(#"{"id":"kitchen","name":"Kitchen"}"#)) == .changed)
        #expect(state.rooms.map(\.name) == ["Garden", "Kitchen"])
        // A client not yet known, a group moved to another stream: only a new status can tell.
        #expect(try state.apply(notification: "Client.OnConnect", params: Self.json(#"{"id":"porch","client":\#(Self.client("porch"))}"#)) == .needsStatus)
        #expect(try state.apply(notification: "Group.OnStreamChanged", params: Self.json(#"{"id":"g0","stream_id":"Radio"}"#)) == .needsStatus)
        // Aubade's own properties, several a second: nothing of the rooms'.
        #expect(try state.apply(notification: "Stream.OnProperties", params: Self.json(#"{"id":"Aubade","properties":{}}"#)) == .unchanged)
        // Server.OnUpdate carries the whole status.
        #expect(try state.apply(notification: "Server.OnUpdate", params: Self.json(Self.status(groups: [("Aubade", [Self.client("porch")])]))) == .changed)
        #expect(state.rooms.map(\.id) == ["porch"])
        #expect(state.forget() == .changed)
        #expect(state.rooms.isEmpty)
    }

    @Test func setVolumeKeepsWhatIsNotChanged() throws {
        let state = try house()
        #expect(state.setVolumeParams(id: "garden", percent: 30, muted: nil)
                == Self.json(#"{"id":"garden","volume":{"muted":true,"percent":30}}"#))
        #expect(state.setVolumeParams(id: "kitchen", percent: nil, muted: true)
                == Self.json(#"{"id":"kitchen","volume":{"muted":true,"percent":70}}"#))
        #expect(state.setVolumeParams(id: "attic", percent: 30, muted: nil) == nil)
        let line = RoomsState.request(id: 7, method: "Client.SetVolume", params: state.setVolumeParams(id: "kitchen", percent: 250, muted: nil))
        #expect(String(decoding: line, as: UTF8.self)
                == #"{"id":7,"jsonrpc":"2.0","method":"Client.SetVolume","params":{"id":"kitchen","volume":{"muted":false,"percent":100}}}"# + "\r\n")
    }

    @Test func messagesAreResponsesErrorsOrNotifications() throws {
        #expect(try RoomsState.message(Array(#"{"id":3,"jsonrpc":"2.0","result":{"volume":{"percent":1}}}"#.utf8))
                == .result(id: 3, Self.json(#"{"volume":{"percent":1}}"#)))
        #expect(try RoomsState.message(Array(#"{"id":4,"jsonrpc":"2.0","error":{"code":-32603,"message":"Client not found"}}"#.utf8))
                == .error(id: 4, "Client not found"))
        #expect(try RoomsState.message(Array(#"{"jsonrpc":"2.0","method":"Client.OnVolumeChanged","params":{"id":"a"}}"#.utf8))
                == .notification(method: "Client.OnVolumeChanged", params: Self.json(#"{"id":"a"}"#)))
    }

    /// Lines no snapserver sends: each refused in words (which never repeat the line itself).
    @Test func hostileLinesAreProblemsInWords() {
        let lines: [String] = [
            "", "not json", "[1,2,3]", "42", #""a string""#, "{", #"{"id":1}"#, #"{"id":"1","result":{}}"#,
            #"{"id":1.5,"result":{}}"#, #"{"method":7}"#, #"{"method":null}"#,
            String(repeating: "[", count: 100_000), #"{"id":99999999999999999999999,"result":{}}"#,
            "{\"method\":\"Client.OnVolumeChanged\",\"params\":\"\u{1}\"}", "\u{FF}\u{FE}",
        ]
        for line in lines {
            var bytes = Array(line.utf8)
            if line == "\u{FF}\u{FE}" { bytes = [0xFF, 0xFE, 0x7B] }
            do {
                let message = try RoomsState.message(bytes)
                Issue.record("\(line.prefix(40)) was read as \(message)")
            } catch {
                #expect(!error.description.contains("Client.OnVolumeChanged"), "\(error)")
                #expect(error.description.count < 200)
            }
        }
    }

    @Test func hostileStatusesAndNotificationsChangeNothingOrLeaveOutTheBadClients() throws {
        // Not a status at all: a problem, the rooms as they were.
        for text in [#"{}"#, #"{"server":[]}"#, #"{"server":{"groups":{}}}"#, #"{"server":{"groups":"many"}}"#, "null"] {
            var state = try house()
            #expect(throws: RoomsProblem.self) { try state.applyStatus(Self.json(text)) }
            #expect(state.rooms.count == 2, "\(text)")
        }
        // Odd clients are left out, the good ones kept, and it is said.
        var state = RoomsState(streamPath: nil)
        let odd = [
            Self.client("a", percent: #""loud""#), Self.client("b", muted: "1"), #"{"id":5}"#, #""client""#, "null",
            #"{"id":"","config":{"volume":{"percent":1}}}"#, Self.client(String(repeating: "x", count: 300)),
            Self.client("good"), Self.client("good", percent: "10"),
            Self.client("over", percent: "250"), Self.client("under", percent: "-5"), Self.client("nan", percent: "1e308"),
            Self.client("named", name: String(repeating: "n", count: 10_000)),
            #"{"id":"bare"}"#,
        ]
        _ = try state.applyStatus(Self.json(Self.status(groups: [("Aubade", odd), ("x", []), ("y", ["[]"])])))
        #expect(state.rooms.map(\.id) == ["bare", "good", "nan", "named", "over", "under"])
        #expect(state.rooms.first { $0.id == "good" }?.percent == 50, "a repeated id: the first kept")
        #expect(state.rooms.first { $0.id == "over" }?.percent == 100)
        #expect(state.rooms.first { $0.id == "under" }?.percent == 0)
        #expect(state.rooms.first { $0.id == "nan" }?.percent == 100)
        #expect(state.rooms.first { $0.id == "named" }?.name.count == RoomsState.maximumTextLength)
        #expect(state.rooms.first { $0.id == "bare" } == SnapcastRoom(id: "bare", name: "bare", percent: 100, muted: false, connected: false))
        #expect(state.leftOut?.contains("9 malformed") == true, "\(state.leftOut ?? "nil")")
        // Notifications with the wrong types: problems, nothing changed.
        let before = state.rooms
        let bad: [(String, String)] = [
            ("Client.OnVolumeChanged", #"{"id":"good","volume":{"percent":"10"}}"#),
            ("Client.OnVolumeChanged", #"{"id":"good","volume":[10]}"#),
            ("Client.OnVolumeChanged", #"{"id":7,"volume":{"percent":10}}"#),
            ("Client.OnVolumeChanged", "null"),
            ("Client.OnConnect", #"{"client":{"id":[]}}"#),
            ("Client.OnDisconnect", #"{"id":{}}"#),
            ("Client.OnNameChanged", #"{"id":"good","name":false}"#),
            ("Server.OnUpdate", #"{"server":"gone"}"#),
        ]
        for (method, params) in bad {
            #expect(throws: RoomsProblem.self, "\(method) \(params)") { try state.apply(notification: method, params: Self.json(params)) }
        }
        #expect(state.rooms == before)
        // A volume for a room that is not one: nothing.
        #expect(try state.apply(notification: "Client.OnVolumeChanged", params: Self.json(#"{"id":"ghost","volume":{"percent":1}}"#)) == .unchanged)
    }

    @Test func atMostSoManyRoomsAreKept() throws {
        var state = RoomsState(streamPath: nil)
        let clients = (0..<1_000).map { Self.client("c\($0)") }
        _ = try state.applyStatus(Self.json(Self.status(groups: [("Aubade", clients)])))
        #expect(state.rooms.count == RoomsState.maximumRooms)
        #expect(state.leftOut?.contains("744 clients past the first 256") == true, "\(state.leftOut ?? "nil")")
    }
}

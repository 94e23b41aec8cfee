import JSON
import SnapcastControl
import Testing

/// Snapcast's stream-plugin requests, as snapserver 0.26 sends them (and as later versions
/// spell them), and what is not a request.
@Suite struct StreamPluginMessageTests {
    func message(_ text: String) -> StreamPluginMessage { .parse(Array(text.utf8)) }

    func request(_ method: String, _ params: String? = nil, id: String = "1") -> StreamPluginMessage {
        message(#"{"id":\#(id),"jsonrpc":"2.0","method":"\#(method)""# + (params.map { #","params":\#($0)"# } ?? "") + "}")
    }

    @Test func everyControlCommandOfSnapcast026() {
        let control = "Plugin.Stream.Player.Control"
        #expect(request(control, #"{"command":"play"}"#) == .request(id: 1, .control(.play)))
        #expect(request(control, #"{"command":"pause"}"#) == .request(id: 1, .control(.pause)))
        #expect(request(control, #"{"command":"playPause"}"#) == .request(id: 1, .control(.playPause)))
        #expect(request(control, #"{"command":"stop"}"#) == .request(id: 1, .control(.stop)))
        #expect(request(control, #"{"command":"next"}"#) == .request(id: 1, .control(.next)))
        #expect(request(control, #"{"command":"previous"}"#) == .request(id: 1, .control(.previous)))
        #expect(request(control, #"{"command":"seek","params":{"offset":-10.5}}"#) == .request(id: 1, .control(.seek(-10.5))))
        #expect(request(control, #"{"command":"setPosition","params":{"position":60}}"#) == .request(id: 1, .control(.setPosition(60))))
        // Later Snapcast versions capitalise.
        #expect(request(control, #"{"command":"SetPosition","params":{"Position":30,"TrackId":"/x"}}"#)
                == .request(id: 1, .control(.setPosition(30))))
        #expect(request(control, #"{"command":"PlayPause"}"#, id: #""a""#) == .request(id: "a", .control(.playPause)))
    }

    @Test func properties() {
        let set = "Plugin.Stream.Player.SetProperty"
        #expect(request(set, #"{"loopStatus":"playlist"}"#) == .request(id: 1, .setProperty(.loopStatus("playlist"))))
        #expect(request(set, #"{"shuffle":true}"#) == .request(id: 1, .setProperty(.shuffle(true))))
        #expect(request(set, #"{"volume":42}"#) == .request(id: 1, .setProperty(.volume(42))))
        #expect(request(set, #"{"rate":1.0}"#) == .request(id: 1, .setProperty(.rate(1))))
        #expect(request("Plugin.Stream.Player.GetProperties") == .request(id: 1, .getProperties))
        #expect(request("Plugin.Stream.Player.GetMetadata") == .request(id: 1, .getMetadata))
    }

    @Test func badParamsAreInvalidParams() {
        let control = "Plugin.Stream.Player.Control", set = "Plugin.Stream.Player.SetProperty"
        for (method, params) in [
            (control, #"{}"#), (control, #"{"command":"explode"}"#), (control, #"{"command":"seek"}"#),
            (control, #"{"command":"seek","params":{"offset":"far"}}"#), (control, #"{"command":"seek","params":{"offset":1e300}}"#),
            (control, #"{"command":"setPosition","params":{"position":-1}}"#), (control, #"{"command":5}"#),
            (set, #"{"loopStatus":"forever"}"#), (set, #"{"volume":101}"#), (set, #"{"volume":"loud"}"#),
            (set, #"{"shuffle":1}"#), (set, #"{"colour":"red"}"#), (set, #"{"shuffle":true,"volume":1}"#), (set, #"[1]"#),
        ] {
            guard case .invalid(let id, let error) = request(method, params) else {
                Issue.record("\(params) was accepted")
                continue
            }
            #expect(id == 1)
            #expect(error.code == .invalidParams, "\(params)")
        }
    }

    @Test func unknownMethodsAreMethodNotFound() {
        guard case .invalid(let id, let error) = request("Plugin.Stream.Player.Explode") else { Issue.record("accepted"); return }
        #expect(id == 1)
        #expect(error.code == .methodNotFound)
    }

    @Test func malformedLinesAreParseErrorsWithANullID() {
        guard case .invalid(let id, let error) = message("{not json") else { Issue.record("accepted"); return }
        #expect(id == .null)
        #expect(error.code == .parseError)
        for text in ["[1,2]", "42", #"{"id":1}"#, #"{"id":1,"method":"x"}"#, #"{"jsonrpc":"2.0","id":{"a":1},"method":"x"}"#] {
            guard case .invalid(_, let error) = message(text) else { Issue.record("\(text) accepted"); continue }
            #expect(error.code == .invalidRequest, "\(text)")
        }
    }

    @Test func responsesAndNotificationsGetNoAnswer() {
        #expect(message(#"{"jsonrpc":"2.0","id":1,"result":"ok"}"#) == .ignored)
        #expect(message(#"{"jsonrpc":"2.0","id":1,"error":{"code":1,"message":"x"}}"#) == .ignored)
        #expect(message(#"{"jsonrpc":"2.0","method":"Plugin.Stream.Player.Control","params":{"command":"play"}}"#) == .ignored)
    }

    @Test func repliesAreOneLineOfJSONRPC() throws {
        let error = StreamPluginReply.error(id: 3, JSONRPCError(code: .methodNotFound, message: "Method not found", data: "x\ny"))
        #expect(!error.contains("\n"))
        #expect(try JSONText.parse(error)["error"]?["code"] == -32601)
        #expect(StreamPluginReply.result(id: "a", "ok") == #"{"jsonrpc":"2.0","id":"a","result":"ok"}"#)
        #expect(StreamPluginReply.notification("Plugin.Stream.Ready") == #"{"jsonrpc":"2.0","method":"Plugin.Stream.Ready"}"#)
    }
}

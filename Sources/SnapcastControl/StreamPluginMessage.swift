public import JSON

/// One line from snapserver, as Snapcast's stream-plugin protocol (JSON-RPC 2.0) reads it:
/// a request the control script must answer, or something it ignores (a response to one of its
/// own notifications, a notification), or a line that is not a request at all (answered with
/// the JSON-RPC error). Snapcast 0.26 spells commands and parameters in lower camel case
/// (`playPause`, `position`); later versions capitalise them (`PlayPause`, `Position`): both
/// are read.
public enum StreamPluginMessage: Sendable, Equatable {
    case request(id: JSONValue, StreamPluginCommand)
    /// Not a request (a response, a notification): no answer is sent.
    case ignored
    /// Answered with this error (`id` null when it could not be read).
    case invalid(id: JSONValue, JSONRPCError)

    public static func parse(_ line: [UInt8]) -> StreamPluginMessage {
        let value: JSONValue
        do {
            value = try JSONText.parse(line)
        } catch {
            return .invalid(id: .null, JSONRPCError(code: .parseError, message: "Parse error", data: error.description))
        }
        guard value.isObject else { return .invalid(id: .null, JSONRPCError(code: .invalidRequest, message: "Invalid Request")) }
        let id = value["id"]
        guard let method = value["method"] else {
            // A response (result or error) to something we sent, or junk without a method.
            if value["result"] != nil || value["error"] != nil { return .ignored }
            return .invalid(id: id ?? .null, JSONRPCError(code: .invalidRequest, message: "Invalid Request", data: "no method"))
        }
        guard let name = method.string, value["jsonrpc"]?.string == "2.0" else {
            return .invalid(id: validID(id), JSONRPCError(code: .invalidRequest, message: "Invalid Request"))
        }
        // A notification (no id) gets no answer, whatever it says.
        guard let id else { return .ignored }
        guard isValidID(id) else { return .invalid(id: .null, JSONRPCError(code: .invalidRequest, message: "Invalid Request", data: "bad id")) }
        let params = value["params"]
        if let params, !params.isObject, params != .null {
            return .invalid(id: id, JSONRPCError(code: .invalidParams, message: "Invalid params", data: "params must be an object"))
        }
        switch StreamPluginCommand.parse(method: name, params: params) {
        case .success(let command): return .request(id: id, command)
        case .failure(let error): return .invalid(id: id, error)
        }
    }

    private static func isValidID(_ id: JSONValue) -> Bool {
        switch id {
        case .string, .integer, .number, .null: true
        default: false
        }
    }

    private static func validID(_ id: JSONValue?) -> JSONValue {
        guard let id, isValidID(id) else { return .null }
        return id
    }
}

/// What snapserver asks the player to do.
public enum StreamPluginCommand: Sendable, Equatable {
    case control(TransportCommand)
    case setProperty(PropertyChange)
    case getProperties
    case getMetadata

    public enum TransportCommand: Sendable, Equatable {
        case play, pause, playPause, stop, next, previous
        /// Seconds, relative.
        case seek(Double)
        /// Seconds into the current track.
        case setPosition(Double)
    }

    public enum PropertyChange: Sendable, Equatable {
        /// "none", "track" or "playlist".
        case loopStatus(String)
        case shuffle(Bool)
        /// Percent, 0…100.
        case volume(Int)
        case rate(Double)
    }

    /// Longer than any track: a seek or position past it is refused rather than multiplied
    /// into an overflow.
    static let secondsLimit = 1e7

    static func parse(method: String, params: JSONValue?) -> Result<StreamPluginCommand, JSONRPCError> {
        func invalid(_ data: String) -> Result<StreamPluginCommand, JSONRPCError> {
            .failure(JSONRPCError(code: .invalidParams, message: "Invalid params", data: data))
        }
        switch method {
        case "Plugin.Stream.Player.GetProperties": return .success(.getProperties)
        case "Plugin.Stream.Player.GetMetadata": return .success(.getMetadata)
        case "Plugin.Stream.Player.Control":
            guard let command = params?.member("command")?.string else { return invalid("command missing") }
            let arguments = params?.member("params")
            switch lowerFirst(command) {
            case "play": return .success(.control(.play))
            case "pause": return .success(.control(.pause))
            case "playPause": return .success(.control(.playPause))
            case "stop": return .success(.control(.stop))
            case "next": return .success(.control(.next))
            case "previous": return .success(.control(.previous))
            case "seek":
                guard let offset = arguments?.member("offset")?.double, offset.isFinite, abs(offset) <= secondsLimit else {
                    return invalid("seek needs params.offset, a number of seconds")
                }
                return .success(.control(.seek(offset)))
            case "setPosition":
                guard let position = arguments?.member("position")?.double, position.isFinite,
                      (0...secondsLimit).contains(position) else {
                    return invalid("setPosition needs params.position, a number of seconds ≥ 0")
                }
                return .success(.control(.setPosition(position)))
            default:
                return invalid("unknown command \(EchoLimit.clip(command))")
            }
        case "Plugin.Stream.Player.SetProperty":
            guard case .object(let members) = params ?? .null, members.count == 1, let member = members.first else {
                return invalid("SetProperty takes one property")
            }
            switch (member.key, member.value) {
            case ("loopStatus", .string(let status)) where ["none", "track", "playlist"].contains(status):
                return .success(.setProperty(.loopStatus(status)))
            case ("shuffle", .bool(let on)):
                return .success(.setProperty(.shuffle(on)))
            case ("volume", let value):
                guard let volume = value.double, volume.isFinite, (0...100).contains(volume) else {
                    return invalid("volume is a percentage, 0 to 100")
                }
                return .success(.setProperty(.volume(Int(volume.rounded()))))
            case ("rate", let value):
                guard let rate = value.double, rate.isFinite, rate >= 0, rate <= 100 else { return invalid("rate is a number ≥ 0") }
                return .success(.setProperty(.rate(rate)))
            default:
                return invalid("unknown property or value: \(EchoLimit.clip(member.key))")
            }
        default:
            return .failure(JSONRPCError(code: .methodNotFound, message: "Method not found", data: EchoLimit.clip(method)))
        }
    }

    private static func lowerFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }
}

/// A JSON-RPC 2.0 error object.
public struct JSONRPCError: Error, Sendable, Equatable {
    public enum Code: Int64, Sendable {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
    }

    public var code: Code
    public var message: String
    public var data: String?

    public init(code: Code, message: String, data: String? = nil) {
        self.code = code
        self.message = message
        self.data = data
    }

    public var json: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("code", .integer(code.rawValue)), ("message", .string(message))]
        if let data { members.append(("data", .string(data))) }
        return .object(members)
    }
}

/// Text from outside, repeated in an answer: at most 80 characters.
enum EchoLimit {
    static func clip(_ text: String) -> String {
        text.count <= 80 ? text : String(text.prefix(80)) + "…"
    }
}

/// The lines the control script writes.
public enum StreamPluginReply {
    public static func result(id: JSONValue, _ result: JSONValue) -> String {
        JSONText.write(["jsonrpc": "2.0", "id": id, "result": result])
    }

    public static func error(id: JSONValue, _ error: JSONRPCError) -> String {
        JSONText.write(["jsonrpc": "2.0", "id": id, "error": error.json])
    }

    public static func notification(_ method: String, _ params: JSONValue? = nil) -> String {
        var members: [(key: String, value: JSONValue)] = [("jsonrpc", "2.0"), ("method", .string(method))]
        if let params { members.append(("params", params)) }
        return JSONText.write(.object(members))
    }
}

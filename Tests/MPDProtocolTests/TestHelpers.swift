import MusicDatabase
@testable import MPDProtocol

/// What the server would answer to one line at the parsing stage: "OK\n" when the line parses
/// into a command (mpd would then run it), else the ACK line.
func parseAnswer(_ line: String, permissions: MPDPermissions = .all) -> String {
    parseAnswer(bytes: Array(line.utf8), permissions: permissions)
}

func parseAnswer(bytes: [UInt8], permissions: MPDPermissions = .all) -> String {
    do {
        _ = try MPDCommand.parse(RequestLine(bytes), permissions: permissions)
        return "OK\n"
    } catch {
        var writer = ResponseWriter()
        writer.ack(error, listIndex: 0)
        return text(writer)
    }
}

/// The command a line parses into (the test fails on an error).
func command(_ line: String, permissions: MPDPermissions = .all) throws -> MPDCommand {
    try MPDCommand.parse(RequestLine(Array(line.utf8)), permissions: permissions)
}

/// The filter of `find ARGS…`.
func findFilter(_ line: String) throws -> SongFilter {
    guard case .find(let query) = try command(line) else { throw UnexpectedCommand() }
    return query.filter
}

struct UnexpectedCommand: Error {}

func text(_ writer: ResponseWriter) -> String {
    String(decoding: writer.bytes, as: UTF8.self)
}

/// A small deterministic generator (SplitMix64) for the hostile-input tests: the same lines on
/// every run, so a failure can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

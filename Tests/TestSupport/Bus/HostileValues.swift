import DBusKit
import Foundation

/// SplitMix64: a small seeded generator, so a fuzz run can be replayed from its seed.
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

/// D-Bus type signatures, split into single complete types.
enum SignatureText {
    /// "a{sv}as(ii)" → ["a{sv}", "as", "(ii)"]; nil if malformed.
    static func split(_ signature: String) -> [String]? {
        let characters = Array(signature)
        var index = 0
        var result: [String] = []
        while index < characters.count {
            guard let end = endOfCompleteType(characters, index) else { return nil }
            result.append(String(characters[index..<end]))
            index = end
        }
        return result
    }

    /// The index after the single complete type that starts at `start`.
    static func endOfCompleteType(_ characters: [Character], _ start: Int) -> Int? {
        guard start < characters.count else { return nil }
        switch characters[start] {
        case "y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g", "h", "v":
            return start + 1
        case "a":
            return endOfCompleteType(characters, start + 1)
        case "(", "{":
            let close: Character = characters[start] == "(" ? ")" : "}"
            var index = start + 1
            while index < characters.count, characters[index] != close {
                guard let end = endOfCompleteType(characters, index) else { return nil }
                index = end
            }
            return index < characters.count ? index + 1 : nil
        default:
            return nil
        }
    }
}

/// Values a hostile client sends: extremes of every integer type, NaN and ±inf, empty and
/// 1 MiB strings, control characters, hostile URIs and object paths, 10,000-element arrays,
/// file descriptors — each of a given D-Bus type, so the same generator makes right-typed
/// arguments with bad values and wrong-typed ones. Deterministic for a seed.
struct HostileValues {
    var random: SeededGenerator
    /// A descriptor this process owns (of /dev/null); libdbus sends a duplicate of it.
    let descriptor: Int32
    /// URIs for OpenUri/AddTrack: files that are not music, that block, loop or are too long.
    let uris: [String]
    /// Track ids of the queue, learnt while fuzzing, among the hostile paths.
    var trackIDs: [String] = []
    /// Names worth sending as strings: real property and interface names get past the first checks.
    var names: [String] = []
    /// Descriptors left for the message being made: the bus allows only a few per message and
    /// drops a connection that sends more. Reset for every call (`startMessage`).
    private(set) var descriptorBudget = 0
    static let descriptorsPerMessage = 8

    mutating func startMessage() { descriptorBudget = Self.descriptorsPerMessage }

    static let hugeString = String(repeating: "x", count: 1 << 20)
    static let bigArrayCount = 10_000

    init(seed: UInt64, descriptor: Int32, uris: [String]) {
        random = SeededGenerator(seed: seed)
        self.descriptor = descriptor
        self.uris = uris
    }

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
    mutating func count(upTo limit: Int) -> Int { Int.random(in: 0...limit, using: &random) }

    /// A value of the single complete type `type`. `big` allows 1 MiB strings and 10,000-element
    /// arrays at this level (never inside them, so a message stays a few MiB at most).
    mutating func value(_ type: String, big: Bool = true) -> DBusKit.DBusValue {
        let characters = Array(type)
        guard let first = characters.first else { return .int32(0) }
        switch first {
        case "y": return .byte(pick([0, 1, 0x7F, 0xFF, UInt8.random(in: 0...255, using: &random)]))
        case "b": return .boolean(chance(50))
        case "n": return .int16(pick([0, -1, 1, .min, .max, Int16.random(in: .min ... .max, using: &random)]))
        case "q": return .uint16(pick([0, 1, .max, UInt16.random(in: 0 ... .max, using: &random)]))
        case "i": return .int32(pick([0, -1, 1, .min, .max, Int32.random(in: .min ... .max, using: &random)]))
        case "u": return .uint32(pick([0, 1, .max, .max - 1, UInt32.random(in: 0 ... .max, using: &random)]))
        case "x": return .int64(pick([0, -1, 1, .min, .max, .min + 1, .max - 1, 1 << 62, -(1 << 62),
                                      Int64.random(in: .min ... .max, using: &random)]))
        case "t": return .uint64(pick([0, 1, .max, UInt64(Int64.max), UInt64(Int64.max) + 1,
                                       UInt64.random(in: 0 ... .max, using: &random)]))
        case "d": return .double(pick([.nan, -Double.nan, .infinity, -Double.infinity, 0, -0.0, 1, -1, 0.5, 2, 100,
                                       .greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, .leastNonzeroMagnitude,
                                       1e300, -1e300, Double(Int64.max), Double.random(in: -10...10, using: &random)]))
        case "s": return .string(string(big: big))
        case "o": return .objectPath(objectPath(big: big))
        case "g": return .signature(pick(["", "s", "a{sv}", "(((i)))", "ah", "v", "aaaaaaaai", "a(oss)"]))
        case "h":
            descriptorBudget -= 1
            return .unixFD(descriptor)
        case "v": return .variant(value(randomType(depth: 2), big: big))
        case "a":
            let element = String(characters.dropFirst())
            if element.hasPrefix("{") {
                let inner = Array(element.dropFirst().dropLast())
                guard let keyEnd = SignatureText.endOfCompleteType(inner, 0) else { return .int32(0) }
                let key = String(inner[..<keyEnd]), valueType = String(inner[keyEnd...])
                let entries = elements(arrayCount(of: key + valueType, big: big)) {
                    (key: $0.value(key, big: false), value: $0.value(valueType, big: false))
                }
                return .dictionary(keySignature: key, valueSignature: valueType, entries)
            }
            return .array(elementSignature: element, elements(arrayCount(of: element, big: big)) { $0.value(element, big: false) })
        case "(":
            let fields = SignatureText.split(String(characters.dropFirst().dropLast())) ?? []
            return .structure(fields.isEmpty ? [.int32(0)] : fields.map { value($0, big: false) })
        default:
            return .int32(0)
        }
    }

    /// `count` elements; a big array repeats 16 made ones (making 10,000 one by one would take
    /// longer than sending them).
    private mutating func elements<T>(_ count: Int, _ make: (inout HostileValues) -> T) -> [T] {
        let distinct = (0..<min(count, 16)).map { _ in make(&self) }
        return distinct.isEmpty ? [] : (0..<count).map { distinct[$0 % distinct.count] }
    }

    /// 0, 1, a few — or 10,000 when `big` (descriptors stay few: the bus caps them per message).
    private mutating func arrayCount(of element: String, big: Bool) -> Int {
        // A variant may hold descriptors too: only the budget knows.
        if element.contains("h") || element.contains("v") {
            return descriptorBudget > 0 ? count(upTo: min(4, descriptorBudget)) : 0
        }
        if big, chance(15) { return Self.bigArrayCount }
        return pick([0, 1, count(upTo: 8)])
    }

    private static let hostileStrings = [
        "", " ", "a", "Playing", "None", "Track", "Playlist", "playback", "mixWithOthers", "Alphabetical",
        "Café Müller ✓ 🎵", "\u{1B}[2J\u{1B}[31mred\u{07}", "line\nforged: line\r\n", "\u{202E}txt.exe",
        "%", "%ZZ", "%00", "%ff%fe", "../../../../etc/passwd", String(repeating: "é", count: 300),
        String(repeating: "/x", count: 2_500),
    ]

    mutating func string(big: Bool) -> String {
        if big, chance(3) { return Self.hugeString }
        if chance(20), !uris.isEmpty { return small(pick(uris), unless: big) }
        if chance(25), !names.isEmpty { return pick(names) }
        return small(pick(Self.hostileStrings), unless: big)
    }

    /// Inside a 10,000-element array every element stays short, or the message would pass the
    /// bus's 32 MiB limit (and the bus drop the connection).
    private func small(_ text: String, unless big: Bool) -> String {
        big || text.utf8.count <= 100 ? text : String(text.prefix(100))
    }

    private static let hostilePaths = [
        "/", "/org/mpris/MediaPlayer2", "/org/mpris/MediaPlayer2/TrackList/NoTrack", "/org/aubade/Track/0",
        "/org/aubade/Track/18446744073709551615", "/org/aubade/Track/99999999999999999999999",
        "/org/aubade/Track/00000000000000000001", "/org/aubade/Track", "/org/aubade/Playlist/x",
        "/org/aubade/Playlist/" + String(repeating: "_", count: 300),
        String(repeating: "/a", count: 2_500),
    ]

    mutating func objectPath(big: Bool = true) -> String {
        let path = !trackIDs.isEmpty && chance(25) ? pick(Array(trackIDs.suffix(4))) : pick(Self.hostilePaths)
        return big || path.utf8.count <= 100 ? path : "/org/aubade/Track/1"
    }

    /// A random single complete type, for wrong signatures and variant contents.
    mutating func randomType(depth: Int) -> String {
        let basic = ["y", "b", "n", "q", "i", "u", "x", "t", "d", "s", "o", "g"] + (descriptorBudget > 0 ? ["h"] : [])
        guard depth > 0, chance(35) else { return pick(basic) }
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return "a" + randomType(depth: depth - 1)
        case 1: return "a{" + pick(["s", "o", "u", "x"]) + randomType(depth: depth - 1) + "}"
        case 2: return "(" + (0...count(upTo: 2)).map { _ in randomType(depth: depth - 1) }.joined() + ")"
        default: return "v"
        }
    }

    /// Argument lists of a signature other than `signature` (nil: any, including the right one).
    mutating func wrongArguments(not signature: String?) -> [DBusKit.DBusValue] {
        for _ in 0..<8 {
            let count = pick([0, 1, 1, 2, 3, 5])
            let types = (0..<count).map { _ in randomType(depth: 2) }
            if types.joined() != signature { return types.map { value($0) } }
        }
        return [.string("wrong"), .int64(.max), .double(.nan)]
    }
}

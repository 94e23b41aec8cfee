/// Random queue edits from a seed, the same for both servers: adds (songs, folders, at
/// positions absolute and relative to the current song), deletes (positions, ranges, ids),
/// moves, swaps and priorities, with now and then one out of range. Each edit is chosen
/// from the queue's length and current position, so both servers, given the same queue, get
/// the same edit; a server whose queue went another way answers differently, and shows.
struct SeededQueueEdits {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    /// SplitMix64: small, and the same numbers on every machine.
    private mutating func random() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private mutating func below(_ bound: Int) -> Int {
        bound <= 0 ? 0 : Int(random() % UInt64(bound))
    }

    /// A position of the queue, or now and then (1 in 12) one just past it.
    private mutating func position(_ length: Int) -> Int {
        below(12) == 0 ? length + below(3) : below(max(1, length))
    }

    /// Two positions, not the same one: an edit of a song with itself changes nothing, and
    /// mpd gives a new queue version for it all the same (`KnownDifferences.noChangeEdits`
    /// shows that apart, once).
    private mutating func twoPositions(_ length: Int) -> (Int, Int) {
        let first = position(length)
        var second = position(length)
        if second == first { second = first + 1 < length ? first + 1 : max(0, first - 1) }
        return (first, second)
    }

    static let uris = [
        "Aurora Lane/Northern Lights (2019)/01 Polar Night.mp3",
        "Aurora Lane/Northern Lights (2019)/03 Solstice.flac",
        "Aurora Lane/Tides (2021)",
        "Brass Parade/Marching On/02 Encore.mp3",
        "Compilations/Summer Hits",
        "Compilations/Summer Hits/03 Heatwave.mp3",
        "Loose/Deep",
        "Brass Parade/Northern Lights/01 Borealis.mp3",
    ]

    mutating func next(queueLength length: Int, current: Int?) -> SideBySideStep {
        let uri = Self.uris[below(Self.uris.count)]
        // A small queue grows; a long one shrinks.
        let kind = length < 4 ? below(3) : (length > 30 ? 3 + below(9) : below(12))
        switch kind {
        case 0: return .command("add \"\(uri)\"")
        case 1: return .command("add \"\(uri)\" \(position(length))")
        case 2:
            // Relative to the current song: "+N" after it, "-N" before it (an error without one).
            let sign = below(2) == 0 ? "+" : "-"
            return .command("addid \"\(Self.uris[below(2)])\" \(sign)\(below(3))")
        case 3: return .command("delete \(position(length))")
        case 4:
            let start = position(length)
            return .command("delete \(start):\(start + 1 + below(3))")
        case 5: return .command("deleteid {id:\(position(length))}")
        case 6:
            let (from, to) = twoPositions(length)
            return .command("move \(from) \(to)")
        case 7:
            let start = below(max(1, length - 1))
            var destination = below(max(1, length - 1))
            if destination == start { destination = start == 0 ? 1 : 0 }
            return .command("move \(start):\(start + 2) \(destination)")
        case 8:
            let (from, to) = twoPositions(length)
            return .command("moveid {id:\(from)} \(current != nil && below(2) == 0 ? "+1" : "\(to)")")
        case 9:
            let (a, b) = twoPositions(length)
            return .command("swap \(a) \(b)")
        case 10:
            let (a, b) = twoPositions(length)
            return .command("swapid {id:\(a)} {id:\(b)}")
        default:
            return below(2) == 0 ? .command("prio \(below(256)) \(position(length)):\(position(length) + 2)")
                : .command("prioid \(below(256)) {id:\(position(length))}")
        }
    }
}

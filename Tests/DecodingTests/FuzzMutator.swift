/// Deterministic damage for `DecoderFuzzTests`: a fixed-seed PRNG and the mutations a hostile
/// file can carry (flipped bits, runs of 0x00 / 0xFF / junk, cut short, chunks repeated or
/// missing, a length field made huge). The same seed gives the same mutants every run.
struct FuzzMutator {
    /// SplitMix64: tiny, fast, and the same sequence on every platform.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// One mutant: its bytes and what was done to the original, for the failure message.
    struct Mutant {
        var bytes: [UInt8]
        var steps: [String]
        var summary: String { steps.joined(separator: "; ") }
    }

    var random: Generator

    init(seed: UInt64) {
        random = Generator(state: seed)
    }

    /// `original` with one to three mutations applied.
    mutating func mutant(of original: [UInt8]) -> Mutant {
        var mutant = Mutant(bytes: original, steps: [])
        for _ in 0..<Int.random(in: 1...3, using: &random) where mutant.bytes.count > 8 {
            apply(to: &mutant)
        }
        return mutant
    }

    /// `bytes` with the checksum of every whole Ogg page recomputed: damage that libogg would
    /// otherwise drop with the page (a bad CRC) reaches the Vorbis and Opus parsers.
    static func withOggChecksumsFixed(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var offset = 0
        while offset + 27 <= bytes.count {
            guard bytes[offset..<(offset + 4)].elementsEqual("OggS".utf8) else {
                offset += 1
                continue
            }
            let segments = Int(bytes[offset + 26])
            let headerLength = 27 + segments
            guard offset + headerLength <= bytes.count else { break }
            let bodyLength = bytes[(offset + 27)..<(offset + headerLength)].reduce(0) { $0 + Int($1) }
            let end = offset + headerLength + bodyLength
            guard end <= bytes.count else {
                offset += 1
                continue
            }
            bytes.replaceSubrange((offset + 22)..<(offset + 26), with: [0, 0, 0, 0])
            let crc = oggCRC(bytes[offset..<end])
            bytes.replaceSubrange((offset + 22)..<(offset + 26), with: [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: crc >> $0) })
            offset = end
        }
        return bytes
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, not reflected, starting at 0.
    private static func oggCRC(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes {
            crc ^= UInt32(byte) << 24
            for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        }
        return crc
    }

    /// Offsets in the first 4 KiB half of the time: that is where the headers, tags and
    /// pictures the parsers trust are.
    private mutating func offset(in count: Int) -> Int {
        let limit = Bool.random(using: &random) ? min(count, 4_096) : count
        return Int.random(in: 0..<limit, using: &random)
    }

    private mutating func apply(to mutant: inout Mutant) {
        let count = mutant.bytes.count
        switch Int.random(in: 0..<7, using: &random) {
        case 0:
            let flips = Int.random(in: 1...16, using: &random)
            for _ in 0..<flips {
                mutant.bytes[offset(in: count)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            }
            mutant.steps.append("flip \(flips) bits")
        case 1:
            let start = offset(in: count)
            let length = min(count - start, Int.random(in: 1...(Bool.random(using: &random) ? 16 : 4_096), using: &random))
            let fill = Int.random(in: 0..<3, using: &random)
            for index in start..<(start + length) {
                mutant.bytes[index] = fill == 0 ? 0x00 : fill == 1 ? 0xFF : UInt8.random(in: 0...255, using: &random)
            }
            mutant.steps.append("\(["zeros", "0xFF", "junk"][fill]) ×\(length) @\(start)")
        case 2:
            let end = offset(in: count)
            mutant.bytes.removeSubrange(end...)
            mutant.steps.append("cut @\(end)")
        case 3:
            let start = offset(in: count)
            let length = min(count - start, Int.random(in: 1...8_192, using: &random))
            let chunk = mutant.bytes[start..<(start + length)]
            let target = Bool.random(using: &random) ? start + length : offset(in: count)
            mutant.bytes.insert(contentsOf: chunk, at: target)
            mutant.steps.append("copy \(length) @\(start) to @\(target)")
        case 4:
            let start = offset(in: count)
            let length = min(count - start, Int.random(in: 1...8_192, using: &random))
            mutant.bytes.removeSubrange(start..<(start + length))
            mutant.steps.append("delete \(length) @\(start)")
        default:
            // A length or count field made huge: 32 bits in either byte order, or 24 (FLAC).
            let values: [[UInt8]] = [[0xFF, 0xFF, 0xFF, 0xFF], [0x7F, 0xFF, 0xFF, 0xFF], [0xFF, 0xFF, 0xFF, 0x7F],
                                     [0x00, 0xFF, 0xFF, 0xFF], [0x80, 0x00, 0x00, 0x00]]
            let value = values[Int.random(in: 0..<values.count, using: &random)]
            let start = Int.random(in: 0..<(min(count, 4_096) - 3), using: &random)
            mutant.bytes.replaceSubrange(start..<(start + 4), with: value)
            mutant.steps.append("huge \(value.map { String($0, radix: 16) }.joined()) @\(start)")
        }
    }
}

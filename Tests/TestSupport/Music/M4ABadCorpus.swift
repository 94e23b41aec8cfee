import Foundation

/// Broken and hostile M4A and ADTS files (issue 21's bad corpus), cut from real ffmpeg files:
/// each either refused with words that say why, or played for what it holds — never a hang,
/// never a helper that takes the daemon's memory.
public struct M4ABadCorpus: Sendable {
    public enum Verdict: Sendable, Equatable {
        /// Cannot be queued: the reason contains this.
        case refused(String)
        /// Plays: at least this many seconds of it.
        case plays(Double)
    }

    public let directory: String
    public let files: [(name: String, verdict: Verdict)]

    public func path(_ name: String) -> String { directory + "/" + name }

    /// Makes the corpus in `directory` (about 20 MB, some seconds of ffmpeg).
    public static func make(in directory: String) throws -> M4ABadCorpus {
        func path(_ name: String) -> String { directory + "/" + name }
        let atEnd = path("source-end.m4a"), atStart = path("source-start.m4a"), adts = path("source.aac")
        try Fixtures.makeM4A(at: atEnd, seconds: 20, moovAtEnd: true)
        try Fixtures.makeM4A(at: atStart, seconds: 20, moovAtEnd: false)
        try Fixtures.makeADTS(at: adts, seconds: 4)
        let end = try Fixtures.contents(of: atEnd), start = try Fixtures.contents(of: atStart), raw = try Fixtures.contents(of: adts)
        defer { for source in [atEnd, atStart, adts] { try? FileManager.default.removeItem(atPath: source) } }
        let ftyp = Array(end.prefix(Int(bigEndian(end, at: 0))))
        let moov = try offset(of: "moov", in: end) - 4
        var files: [(String, Verdict)] = []
        func add(_ name: String, _ bytes: [UInt8], _ verdict: Verdict) throws {
            try Fixtures.write(bytes, to: path(name))
            files.append((name, verdict))
        }
        // Cut in half: with the moov at the end it is gone; at the start, half the audio is there.
        try add("truncated-moov-at-end.m4a", Array(end.prefix(end.count / 2)), .refused("not an M4A/MP4 file that can be read"))
        try add("truncated-moov-at-start.m4a", Array(start.prefix(start.count / 2)), .plays(8))
        try add("no-moov.m4a", Array(end.prefix(moov)), .refused("not an M4A/MP4 file that can be read"))
        // A moov that claims 2 GB, in a file of a few KiB.
        var past = ftyp
        past += be32(0x7FFF_FFF0)
        past += Array("moov".utf8)
        past += junk(4096, seed: 11)
        try add("size-past-the-end.m4a", past, .refused("no audio stream"))
        // A trak whose size (4) is smaller than its own header: a parser that trusts it loops.
        var looping: [UInt8] = be32(4)
        looping += Array("trak".utf8)
        looping += [UInt8](repeating: 0, count: 64)
        try add("looping-atom.m4a", ftyp + atom("moov", looping), .refused("no audio stream"))
        // 5 MiB of empty atoms between the audio and the moov: found, and played.
        let empty: [UInt8] = be32(8) + Array("free".utf8)
        var crowded = Array(end.prefix(moov))
        for _ in 0..<(5 * 1024 * 1024 / 8) { crowded += empty }
        crowded += end[moov...]
        try add("5MB-of-atoms.m4a", crowded, .plays(19.9))
        try add("random-after-ftyp.m4a", ftyp + junk(65_536, seed: 12), .refused("not an M4A/MP4 file that can be read"))
        // ADTS: a header, then junk; and a real stream with 4 KiB of damage in the middle.
        try add("random-after-adts-header.aac", Array(raw.prefix(7)) + junk(65_536, seed: 13), .refused("no audio"))
        var damaged = raw
        for index in stride(from: raw.count / 2, to: min(raw.count, raw.count / 2 + 4096), by: 3) { damaged[index] ^= 0xA5 }
        try add("damaged.aac", damaged, .plays(3))
        return M4ABadCorpus(directory: directory, files: files)
    }

    private static func bigEndian(_ bytes: [UInt8], at index: Int) -> UInt32 {
        bytes[index..<(index + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }

    private static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func atom(_ type: String, _ body: [UInt8]) -> [UInt8] { be32(UInt32(8 + body.count)) + Array(type.utf8) + body }

    private static func offset(of type: String, in bytes: [UInt8]) throws -> Int {
        let pattern = Array(type.utf8)
        guard let found = bytes.firstRange(of: pattern)?.lowerBound else { throw Fixtures.ToolFailed(description: "no \(type) atom") }
        return found
    }

    /// Fixed pseudo-random bytes: the same junk every run.
    static func junk(_ count: Int, seed: UInt32) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 1_103_515_245 &+ 12345
            return UInt8(truncatingIfNeeded: state >> 16)
        }
    }
}

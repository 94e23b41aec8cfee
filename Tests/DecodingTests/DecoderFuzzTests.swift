import Dispatch
import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// The hostile file, many times over: for each format one small valid file (tags, a cover),
/// then a few hundred deterministic mutants of it (`FuzzMutator`), each read by every entry
/// point — `TrackReader.read`, `TrackReader.coverArt`, `AudioDecoders.open` with reads and
/// wild seeks. Errors are fine; a trap, a hang (over `timeLimit`), a read that writes past its
/// buffer or returns more than it, or memory that keeps growing are not.
///
/// `AUBADE_SANITIZER` set (an ASan/TSan run, 5–20× slower) makes it 60 mutants per format.
/// `AUBADE_FUZZ_TRACE` set prints each mutant before it runs (to find the one that crashed);
/// `AUBADE_FUZZ_KEEP=<folder>` keeps the mutants that fail there.
@Suite(.serialized) struct DecoderFuzzTests {
    enum Format: String, CaseIterable, CustomTestStringConvertible {
        case mp3, flac, vorbis, opus
        var testDescription: String { rawValue }
    }

    static let sanitized = ProcessInfo.processInfo.environment["AUBADE_SANITIZER"] != nil
    static let trace = ProcessInfo.processInfo.environment["AUBADE_FUZZ_TRACE"] != nil
    /// `AUBADE_FUZZ_KEEP`: a folder where the mutants that fail are kept, to reproduce them.
    static let keep = ProcessInfo.processInfo.environment["AUBADE_FUZZ_KEEP"]
    /// `AUBADE_FUZZ_MUTANTS=<n>` and `AUBADE_FUZZ_SEED=<n>`: a longer or different hunt, by hand.
    static let mutantsPerFormat = environmentNumber("AUBADE_FUZZ_MUTANTS").map(Int.init) ?? (sanitized ? 60 : 300)
    static let seed = environmentNumber("AUBADE_FUZZ_SEED") ?? 0xA0BA_DE00
    /// Wall time one mutant may take, all entry points together (sanitizers are slower).
    static let timeLimit: Double = sanitized ? 25 : 5
    /// Audio one mutant's read loop may deliver before it stops: the originals hold 1 s.
    static let audioCapSeconds = 20
    /// Growth of the resident set over one format's run beyond which memory is leaking.
    static let rssGrowthLimit = 200 << 20

    /// The valid original: about a second of tone, tagged, with a cover.
    static func original(_ format: Format, in dir: String) throws -> [UInt8] {
        let path = dir + "/original." + format.rawValue
        let cover = dir + "/cover.png"
        try Fixtures.write(Fixtures.tinyPNG, to: cover)
        switch format {
        case .mp3:
            try Fixtures.makeMP3(at: path, seconds: 1,
                                 lameOptions: Fixtures.tagOptions(title: "Fuzz", artist: "Hostile", album: "Mutants", track: "3")
                                     + ["--ti", cover])
        case .flac:
            try Fixtures.makeFLAC(at: path, seconds: 1, tags: ["TITLE=Fuzz", "ARTIST=Hostile", "REPLAYGAIN_TRACK_GAIN=-3.5 dB"])
            try Fixtures.addFLACPicture(cover, to: path)
        case .vorbis:
            try Fixtures.makeVorbis(at: path, seconds: 1,
                                    tags: [("TITLE", "Fuzz"), ("ARTIST", "Hostile"),
                                           ("METADATA_BLOCK_PICTURE", Fixtures.pictureComment(type: 3, data: Fixtures.tinyPNG))],
                                    serial: 0x1234_5678)
        case .opus:
            try Fixtures.makeOpus(at: path, seconds: 1, tags: [("TITLE", "Fuzz"), ("ARTIST", "Hostile")],
                                  pictures: ["3||||" + cover], serial: 0x1234_5678)
        }
        return try Fixtures.contents(of: path)
    }

    @Test(arguments: Format.allCases)
    func mutantsNeitherTrapNorHangNorGrowMemory(_ format: Format) throws {
        let dir = try Fixtures.makeDirectory()
        defer { Fixtures.remove(dir) }
        let original = try Self.original(format, in: dir)
        // The original itself passes every check, and really has its cover: the mutants start
        // from a file that exercises every parser.
        #expect(try TrackReader.coverArt(path: dir + "/original." + format.rawValue) != nil)

        // Seeded per format, so the mutants of one format do not change when another's do.
        var mutator = FuzzMutator(seed: Self.seed &+ UInt64(Format.allCases.firstIndex(of: format)!))
        let path = FilePath(dir + "/mutant." + format.rawValue)!
        let rssBefore = Self.residentBytes()
        let started = ContinuousClock.now
        var slowest: Duration = .zero
        var outcomes = Outcomes()
        for index in 0..<Self.mutantsPerFormat {
            var mutant = mutator.mutant(of: original)
            // Half the Ogg mutants get valid page checksums, or most would stop at libogg.
            if format == .vorbis || format == .opus, index % 2 == 0 {
                mutant.bytes = FuzzMutator.withOggChecksumsFixed(mutant.bytes)
                mutant.steps.append("page CRCs fixed")
            }
            let label = "\(format) mutant \(index) (\(mutant.bytes.count) bytes: \(mutant.summary))"
            if Self.trace { FileHandle.standardError.write(Data((label + "\n").utf8)) }
            try Fixtures.write(mutant.bytes, to: path.description)
            let worker = MutantRun(path: path, seed: mutator.random.next())
            let done = DispatchSemaphore(value: 0)
            let clock = ContinuousClock.now
            DispatchQueue.global().async {
                worker.run()
                done.signal()
            }
            // Past four times the limit it is a hang: the run is abandoned (its thread stays
            // stuck) and the rest of this format is skipped.
            guard done.wait(timeout: .now() + Self.timeLimit * 4) == .success else {
                Issue.record("\(label) hangs: no answer after \(Self.timeLimit * 4) s")
                return
            }
            let elapsed = ContinuousClock.now - clock
            slowest = max(slowest, elapsed)
            #expect(elapsed < .seconds(Self.timeLimit), "\(label) took \(elapsed)")
            for problem in worker.problems { Issue.record("\(label): \(problem)") }
            if let keep = Self.keep, !worker.problems.isEmpty || elapsed >= .seconds(Self.timeLimit) {
                try Fixtures.write(mutant.bytes, to: "\(keep)/\(format)-\(index).\(format.rawValue)")
            }
            outcomes.add(worker)
        }
        let rssAfter = Self.residentBytes()
        let growth = rssAfter - rssBefore
        // Not under AddressSanitizer: what is freed waits in its quarantine (256 MB), so the
        // resident set grows with what was freed, not with what leaked.
        if ProcessInfo.processInfo.environment["AUBADE_SANITIZER"] != "address" {
            #expect(growth < Self.rssGrowthLimit, "\(format): resident memory grew by \(growth >> 20) MB")
        }
        print("DecoderFuzzTests \(format): \(Self.mutantsPerFormat) mutants in \(ContinuousClock.now - started), "
              + "slowest \(slowest), RSS \(rssBefore >> 20) → \(rssAfter >> 20) MB; \(outcomes)")
    }

    static func environmentNumber(_ name: String) -> UInt64? {
        ProcessInfo.processInfo.environment[name].flatMap { UInt64($0) }
    }

    /// VmRSS of this process, in bytes (0 when /proc is not there).
    static func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else { return 0 }
        return kilobytes * 1_024
    }

    /// How the mutants fared, for the summary line.
    struct Outcomes: CustomStringConvertible {
        var read = 0, covers = 0, opened = 0, cappedLoops = 0
        mutating func add(_ run: MutantRun) {
            read += run.trackRead ? 1 : 0
            covers += run.coverFound ? 1 : 0
            opened += run.opened ? 1 : 0
            cappedLoops += run.hitAudioCap ? 1 : 0
        }
        var description: String {
            "track read \(read), cover found \(covers), decoder opened \(opened), audio cap reached \(cappedLoops)"
        }
    }
}

/// One mutant through every entry point, on a thread of its own; `problems` says what went
/// wrong beyond a `DecodingError` (which is the right answer to a broken file).
final class MutantRun: @unchecked Sendable {
    let path: FilePath
    private var random: FuzzMutator.Generator
    private(set) var problems: [String] = []
    private(set) var trackRead = false, coverFound = false, opened = false, hitAudioCap = false

    /// Bytes past the end of the buffer handed to `read`, checked after every read.
    private static let guardBytes = 64
    private static let guardByte: UInt8 = 0xA5
    private static let bufferBytes = 16_384

    init(path: FilePath, seed: UInt64) {
        self.path = path
        random = .init(state: seed)
    }

    func run() {
        trackRead = (try? TrackReader.read(path: path)) != nil
        coverFound = ((try? TrackReader.coverArt(path: path)) ?? nil) != nil
        guard let decoder = try? AudioDecoders.open(path: path) else { return }
        opened = true
        let storage = UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferBytes + Self.guardBytes, alignment: 16)
        defer { storage.deallocate() }
        var delivered = 0
        readSome(decoder, storage: storage, reads: 4_096, delivered: &delivered)
        let seconds = Int64(DecoderFuzzTests.audioCapSeconds) * 1_000_000
        let positions: [Microseconds] = [Int64.random(in: 0...2_000_000, using: &random), -Int64.random(in: 1...seconds, using: &random),
                                         .max, .max - 1, .min, 1 << 62, 500_000]
        for position in positions {
            do {
                try decoder.seek(to: position)
            } catch {
                continue
            }
            readSome(decoder, storage: storage, reads: 8, delivered: &delivered)
        }
    }

    /// Up to `reads` reads into buffers of random sizes (at least one frame, so the carry
    /// paths of the Ogg decoders run too), stopping at the end, an error or the audio cap.
    private func readSome(_ decoder: any AudioDecoder, storage: UnsafeMutableRawBufferPointer, reads: Int, delivered: inout Int) {
        for _ in 0..<reads {
            let format = decoder.format
            guard format.channels >= 1, format.channels <= 255, format.sampleRate >= 1 else {
                problems.append("nonsense format \(format)")
                return
            }
            let cap = DecoderFuzzTests.audioCapSeconds * format.sampleRate * format.bytesPerFrame
            if delivered >= cap {
                hitAudioCap = true
                return
            }
            let size = Bool.random(using: &random) ? Self.bufferBytes
                : Int.random(in: format.bytesPerFrame...(4 * PCMCarry.largestFrameBytes), using: &random)
            let buffer = UnsafeMutableRawBufferPointer(rebasing: storage[..<size])
            let fence = UnsafeMutableRawBufferPointer(rebasing: storage[size..<(size + Self.guardBytes)])
            fence.initializeMemory(as: UInt8.self, repeating: Self.guardByte)
            let count: Int
            do {
                count = try decoder.read(into: buffer)
            } catch {
                return
            }
            if fence.contains(where: { $0 != Self.guardByte }) {
                problems.append("read wrote past the end of its \(size)-byte buffer")
                return
            }
            guard count >= 0, count <= size else {
                problems.append("read returned \(count) bytes for a \(size)-byte buffer")
                return
            }
            if count % decoder.format.bytesPerFrame != 0 {
                problems.append("read returned \(count) bytes: not whole frames of \(decoder.format)")
                return
            }
            if count == 0 { return }
            delivered += count
        }
    }
}

import Foundation
import SoundAnalysis
@testable import TestSupport

// Tools of the stream benchmark (StreamBenchmarkTests): the station's tone files, finding where
// a tone starts in what the sink played, and a raw listener that sees where icecast itself put
// a title in the stream.

// MARK: - The station's audio

/// The MP3s the source feeds (sox + lame: CBR 128 kbit/s, 44.1 kHz stereo, half-scale sines):
/// - `ab.mp3`, `seconds` long (90 s: no session reaches its end, where the loop would add the
///   file's own 25 ms of encoder and decoder padding): tone A (440 Hz), then tone B (880 Hz) from the first sample of MPEG frame
///   `boundaryFrame` on: A lasts `boundaryFrame × 1152 − 1105` samples, so after LAME's encoder
///   delay (576) and libmpg123's decoder delay (529) tone B is heard with the frame the source
///   sets the title "… Tone B" at (checked when this was written: the change decodes 25 samples,
///   0.6 ms, into that frame). Frame 412 (10.762 s) starts 1 byte before the end of a 1400-byte
///   chunk of the stream: icecast hands the stream on in such chunks, counted from the source's
///   first byte, and a title set while one chunk fills goes with the next one (seen here: frame
///   460, 939 bytes before a chunk's end, got its title 59 ms late). So this boundary has its
///   title at the boundary itself, within a byte, and a player's figure is its own; the raw
///   listener (`TitlePlacementProbe`) checks that in every session.
/// - `c.mp3`, 60 s of tone C (1320 Hz): what the source plays after the icecast2 restart, so
///   the first C at the sink is audio of the new connection, never the old one's buffer.
struct StreamTones {
    static let rate = 44_100
    static let samplesPerFrame = 1152
    /// 128 kbit/s.
    static let bytesPerSecond = 16_000.0
    static let codecDelay = 576 + 529
    /// Starts at 10.762 s of media time, at byte 172_199 of the stream (CBR 128 kbit/s frames are 417 or 418 bytes).
    static let boundaryFrame = 412
    /// Icecast's chunks (REFBUF_SIZE of its format_mp3.c).
    static let icecastChunk = 1400
    static var boundarySeconds: Double { Double(boundaryFrame * samplesPerFrame) / Double(rate) }
    static let frequencyA = 440.0
    static let frequencyB = 880.0
    static let frequencyC = 1320.0
    static let titleA = "Aubade Bench - Tone A"
    static let titleB = "Aubade Bench - Tone B"
    /// What identifies the new title in any player's Metadata (Aubade splits "Artist - Title").
    static let markerB = "Tone B"

    /// Half a period of `frequency` in samples: the spacing of its zero crossings.
    static func halfPeriod(_ frequency: Double) -> Double { Double(rate) / frequency / 2 }

    let ab: URL
    let c: URL
    /// The bytes of the boundary frame as the source sends it (no tags, no Info frame): found
    /// in a raw listener's stream, it says where the boundary is there. Nil when not unique.
    let boundaryFrameBytes: Data?
    /// Bytes from the boundary frame's start to the next icecast chunk (0–1399): where icecast
    /// should put the title, after the boundary.
    let chunkAlignment: Int

    init(in folder: URL, seconds: Int) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        ab = folder.appendingPathComponent("ab.mp3")
        c = folder.appendingPathComponent("c.mp3")
        let a = folder.appendingPathComponent("a.wav"), b = folder.appendingPathComponent("b.wav")
        let abWav = folder.appendingPathComponent("ab.wav"), cWav = folder.appendingPathComponent("c.wav")
        defer { for wav in [a, b, abWav, cWav] { try? FileManager.default.removeItem(at: wav) } }
        let aSamples = Self.boundaryFrame * Self.samplesPerFrame - Self.codecDelay
        // `-r 44100` before `-n` too: sox counts the `s` (samples) of synth at the input's rate.
        func synth(_ out: URL, _ length: String, _ frequency: Double) throws {
            try Self.check(Shell.run("sox", ["-q", "-r", "44100", "-n", "-r", "44100", "-c", "2", "-b", "16", out.path,
                                             "synth", length, "sine", String(frequency), "vol", "0.5"]), "sox")
        }
        try synth(a, "\(aSamples)s", Self.frequencyA)
        try synth(b, "\(seconds * Self.rate - aSamples)s", Self.frequencyB)
        try synth(cWav, "60", Self.frequencyC)
        try Self.check(Shell.run("sox", ["-q", a.path, b.path, abWav.path]), "sox (concatenate)")
        for (wav, mp3) in [(abWav, ab), (cWav, c)] {
            try Self.check(Shell.run("lame", ["--quiet", "--cbr", "-b", "128", "--resample", "44.1", wav.path, mp3.path],
                                     timeout: 120), "lame")
        }
        let frames = Self.frames(of: try Data(contentsOf: ab))
        let start = frames.prefix(Self.boundaryFrame).map(\.count).reduce(0, +)
        chunkAlignment = (Self.icecastChunk - start % Self.icecastChunk) % Self.icecastChunk
        if frames.count > Self.boundaryFrame {
            let frame = frames[Self.boundaryFrame]
            let all = frames.reduce(Data(), +)
            var count = 0
            var from = all.startIndex
            while let found = all.range(of: frame, in: from..<all.endIndex) {
                count += 1
                from = found.upperBound
            }
            boundaryFrameBytes = count == 1 ? frame : nil
        } else {
            boundaryFrameBytes = nil
        }
    }

    /// The audio frames of a CBR MPEG-1 layer III file as IcecastSource sends them: ID3v2 tag and
    /// the encoder's Xing/Info frame left out.
    static func frames(of data: Data) -> [Data] {
        let bytes = [UInt8](data)
        var index = 0
        if bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33 {
            index = 10 + (Int(bytes[6]) << 21 | Int(bytes[7]) << 14 | Int(bytes[8]) << 7 | Int(bytes[9]))
        }
        let bitrates = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
        var result: [Data] = []
        while index + 4 <= bytes.count {
            let bitrateIndex = Int(bytes[index + 2] >> 4)
            guard bytes[index] == 0xFF, bytes[index + 1] & 0xFE == 0xFA, bitrateIndex > 0, bitrateIndex < 15,
                  (bytes[index + 2] >> 2) & 3 == 0 else {  // MPEG-1 layer III, 44.1 kHz
                index += 1
                continue
            }
            let length = 144 * bitrates[bitrateIndex] * 1000 / 44_100 + Int((bytes[index + 2] >> 1) & 1)
            guard index + length <= bytes.count else { break }
            let frame = Data(bytes[index..<(index + length)])
            let head = frame.prefix(40)
            if result.isEmpty, head.range(of: Data("Xing".utf8)) != nil || head.range(of: Data("Info".utf8)) != nil {
                index += length
                continue
            }
            result.append(frame)
            index += length
        }
        return result
    }

    private static func check(_ result: CommandResult, _ what: String) throws {
        guard result.succeeded else { throw DaemonError("\(what) failed: \(result)") }
    }
}

// MARK: - Where a tone starts at the sink

/// Looks through a `MonitorRecorder`'s capture for the start of a tone, a piece at a time, so
/// a long recording is not analysed again on every poll.
struct ToneOnsetSearch {
    let recorder: MonitorRecorder
    let tone: Double
    /// The tone that may come before it (any tone nearer this one than `tone` does not count).
    let other: Double
    /// The byte the search started from, and how far it has looked.
    let from: Int
    private(set) var checked: Int

    init(recorder: MonitorRecorder, tone: Double, other: Double, from: Int) {
        self.recorder = recorder
        self.tone = tone
        self.other = other
        self.from = from / 4 * 4
        checked = self.from
    }

    /// The onset (monotonic ns, to the sample) if it has been recorded: the first zero crossing
    /// after which 8 half-periods in a row are nearer `tone`'s than `other`'s.
    mutating func poll() -> Double? {
        let data = recorder.data
        // Overlap: 0.1 s, so a change across two pieces is seen whole.
        let start = max(from, checked - 17_640)
        guard data.count > start + 4 * 400 else { return nil }
        let end = data.count / 4 * 4
        let analysis = ToneAnalysis(data.subdata(in: start..<end))
        checked = end
        guard let frame = analysis.pitchChange(in: 0..<analysis.samples.count,
                                               fromHalfPeriod: StreamTones.halfPeriod(other),
                                               toHalfPeriod: StreamTones.halfPeriod(tone)) else { return nil }
        let whole = Int(frame)
        guard let at = recorder.time(ofByte: start + whole * 4) else { return nil }
        return Double(at) + (frame - Double(whole)) * 1e9 / Double(StreamTones.rate)
    }

    /// The byte of a monotonic time in the capture.
    func byte(at ns: Double) -> Int { recorder.byte(atTime: UInt64(max(0, ns))) ?? from }
}

extension Loudness {
    /// The longest run of quiet 5 ms windows in `recording` (seconds), and where it starts (seconds in).
    static func longestQuiet(_ recording: Data) -> (seconds: Double, startsAt: Double) {
        var best = (length: 0, start: 0)
        var run = 0
        for (index, loud) in windows(recording).enumerated() {
            run = loud ? 0 : run + 1
            if run > best.length { best = (run, index - run + 1) }
        }
        return (Double(best.length) * windowMilliseconds / 1000, Double(best.start) * windowMilliseconds / 1000)
    }
}

// MARK: - Where icecast put the title

/// A raw listener of the mount (`Icy-MetaData: 1`) on a thread of its own: it finds the boundary
/// frame (by its bytes) and the first ICY block with the new title in its stream, and so how far
/// from the boundary icecast itself placed the title for a listener (each listener's blocks fall
/// at other places: a sample of what icecast does, not of what a given player got).
final class TitlePlacementProbe: @unchecked Sendable {
    private let lock = NSLock()
    private var frameAt: Int?
    private var titleAt: Int?
    private var failure: String?
    private var finished = false

    init(port: Int, mount: String, metaint: Int, frame: Data, title: Data, timeout: TimeInterval) {
        let thread = Thread { [self] in
            do {
                let connection = try RawHTTPConnection(port: port, timeout: 5)
                defer { connection.close() }
                try connection.sendGet(mount, headers: ["Icy-MetaData": "1"])
                let head = try connection.readHead()
                guard head.status == 200 else { throw DaemonError("listener: \(head.statusLine)") }
                let reader = ICYReader(connection: connection, metaint: metaint)
                var audio = Data()
                let deadline = Date(timeIntervalSinceNow: timeout)
                while Date() < deadline {
                    let block = try reader.next()
                    let searchFrom = max(0, audio.count - frame.count)
                    audio.append(block.audio)
                    if lock.withLock({ frameAt }) == nil,
                       let found = audio.range(of: frame, in: (audio.startIndex + searchFrom)..<audio.endIndex) {
                        lock.withLock { frameAt = found.lowerBound - audio.startIndex }
                    }
                    if lock.withLock({ titleAt }) == nil, ICYReader.streamTitle(in: block.metadata) == title {
                        lock.withLock { titleAt = audio.count }
                    }
                    if lock.withLock({ frameAt != nil && titleAt != nil }) { break }
                }
            } catch {
                lock.withLock { failure = "\(error)" }
            }
            lock.withLock { finished = true }
        }
        thread.start()
    }

    /// Title block − boundary frame, in ms of audio (negative: the title came first); nil until both were seen.
    var placementMilliseconds: Double? {
        lock.withLock {
            guard let frameAt, let titleAt else { return nil }
            return Double(titleAt - frameAt) / StreamTones.bytesPerSecond * 1000
        }
    }

    var problem: String? { lock.withLock { failure } }

    /// Waits (up to `timeout`) for the listener to finish.
    func wait(timeout: TimeInterval) {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline, !lock.withLock({ finished }) { Thread.sleep(forTimeInterval: 0.05) }
    }
}

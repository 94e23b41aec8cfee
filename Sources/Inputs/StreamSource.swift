import AudioOutput
import Mpg123Kit
import PlayerCore

/// A station's audio as PCM: pulls pieces from the connection, feeds the MP3 ones to the
/// decoder and turns the ICY ones into marks placed at the first sample of the song they name.
///
/// The title timing: when a metadata block arrives, everything before it has been fed; the
/// mark is placed where the decoder next asks for more input, that is after the last sample
/// of that audio (within one MPEG frame, 26 ms). The output announces it when that sample is
/// heard, so a title changes with the music, not seconds early when it was downloaded.
///
/// Used on the track's decoder queue only (`DecodeAhead`), hence `@unchecked Sendable`.
final class StreamSource: @unchecked Sendable {
    let connection: StationConnection
    private var decoder: MP3FeedDecoder
    private var pieces: [ICYDemuxer.Piece] = []
    private var nextPiece = 0
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
    /// PCM bytes delivered so far: where marks are placed.
    private var produced: Int64 = 0
    private var waitingTitle: LiveTitle?
    private var lastTitle: LiveTitle?
    private var marks: [SourceMark] = []
    /// Where the last mark was placed: titles closer together than `minimumTitleSpacing` of
    /// audio wait (the newest wins), so a hostile station cannot flood the bus with them.
    private var lastMarkOffset: Int64?
    /// Compressed bytes fed since the last PCM came out: MP3 that never decodes is refused.
    private var fedWithoutAudio = 0
    private var decoderRestarts = 0
    private(set) var format: PCMFormat?

    /// Seconds of audio between two published titles, at least.
    static let minimumTitleSpacing = 1.0
    /// A stream that gives no audio from this much data is not MP3 (random bytes, a video).
    static let maximumBytesWithoutAudio = 512 * 1024
    /// Decoder restarts after bad data, in a row without audio between them.
    static let maximumDecoderRestarts = 8
    /// A file over HTTP read from its start: its size went to the decoder, and its length
    /// is reported once the first frame is decoded.
    private var measuring = false
    private var sizeGiven = false

    init(connection: StationConnection) throws(StreamError) {
        self.connection = connection
        do {
            decoder = try MP3FeedDecoder()
        } catch {
            throw StreamError(url: connection.url.redacted, reason: "cannot start the decoder: \(error)")
        }
    }

    /// What `read` and `prepare` found besides PCM.
    enum Outcome {
        case pcm(Int)
        case starved
        case ended
        case playlist
    }

    /// Decodes until the format is known (the stream's first frame), without losing audio.
    func prepare() throws(StreamError) -> Outcome {
        let probe = UnsafeMutableRawBufferPointer.allocate(byteCount: 4, alignment: 4)
        defer { probe.deallocate() }
        // A zero-length result with the new format comes before any PCM (libmpg123's rule).
        while format == nil {
            let outcome = try step(into: probe, stopAtFormat: true)
            switch outcome {
            case .pcm: continue
            case .starved, .ended, .playlist: return outcome
            }
        }
        return .pcm(0)
    }

    /// Fills `buffer` with PCM (whole frames).
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamError) -> Outcome {
        try step(into: buffer, stopAtFormat: false)
    }

    func takeMarks() -> [SourceMark] {
        defer { marks = [] }
        return marks
    }

    private func step(into buffer: UnsafeMutableRawBufferPointer, stopAtFormat: Bool) throws(StreamError) -> Outcome {
        // Bounded: each turn either decodes, feeds a piece or returns.
        for _ in 0..<4096 {
            let result: (bytes: Int, needsMore: Bool, newFormat: Bool)
            do {
                result = try decoder.decode(into: buffer)
            } catch {
                // Bad bytes in a live stream (a glitch, a reconnect mid-frame): start a fresh
                // decoder on what follows, rather than giving the station up.
                try restartDecoder(after: "\(error)")
                continue
            }
            if result.newFormat {
                if let known = format, known != decoder.format {
                    // Most likely a false frame header in bad bytes: start over on what follows.
                    // A station that really changed its format fails after a few tries.
                    try restartDecoder(after: "the stream changed its format (\(known.sampleRate) Hz → \(decoder.format?.sampleRate ?? 0) Hz)")
                    continue
                }
                format = decoder.format
                reportLength()
                if stopAtFormat { return .pcm(0) }
            }
            if result.bytes > 0 {
                fedWithoutAudio = 0
                decoderRestarts = 0
                produced += Int64(result.bytes)
                return .pcm(result.bytes)
            }
            guard result.needsMore else { continue }
            if let title = waitingTitle, titleMayFollow() {
                marks.append(SourceMark(byteOffset: produced, title: title))
                lastMarkOffset = produced
                waitingTitle = nil
            }
            if nextPiece == pieces.count {
                switch connection.pull(into: &scratch) {
                case .pieces(let new, let afresh):
                    pieces = new
                    nextPiece = 0
                    // A reconnect joins the station mid-frame: a decoder that goes on would take
                    // a false frame header for the truth (seen: "44100 Hz → 11025 Hz").
                    if afresh { try startDecoderOver() }
                case .starved: return .starved
                case .ended: return .ended
                case .playlist: return .playlist
                case .refused(let reason): throw fail(reason)
                }
                continue
            }
            let piece = pieces[nextPiece]
            nextPiece += 1
            switch piece {
            case .audio(let bytes):
                if !sizeGiven { giveFileSize() }
                fedWithoutAudio += bytes.count
                if fedWithoutAudio > Self.maximumBytesWithoutAudio {
                    throw fail("no MP3 audio in the first \(Self.maximumBytesWithoutAudio / 1024) KiB of the stream")
                }
                do {
                    try decoder.feed(bytes)
                } catch {
                    throw fail("decoder refused the stream (\(error))")
                }
            case .metadata(let block):
                if let title = ICYTitle.parse(block), title != lastTitle {
                    lastTitle = title
                    waitingTitle = title
                }
            }
        }
        throw fail("the stream made no progress")
    }

    private func titleMayFollow() -> Bool {
        guard let lastMarkOffset, let format else { return true }
        return produced - lastMarkOffset >= Int64(format.bytes(seconds: Self.minimumTitleSpacing))
    }

    private func restartDecoder(after problem: String) throws(StreamError) {
        decoderRestarts += 1
        guard format != nil, decoderRestarts <= Self.maximumDecoderRestarts else {
            throw fail(format == nil ? "the stream is not MP3 audio that can be decoded (\(problem))" : problem)
        }
        try startDecoderOver()
    }

    /// A fresh decoder for what follows; the format it announces must be the stream's.
    private func startDecoderOver() throws(StreamError) {
        do {
            decoder = try MP3FeedDecoder()
        } catch {
            throw fail("cannot start the decoder: \(error)")
        }
        // The new decoder announces the format again: the same one is no change.
        sizeGiven = true
    }

    private func giveFileSize() {
        sizeGiven = true
        let facts = connection.fileFacts
        guard !connection.isLive, facts.fromStart, let size = facts.size else { return }
        measuring = (try? decoder.setFileSize(size)) != nil
    }

    private func reportLength() {
        guard measuring, let frames = decoder.lengthInFrames, let format, format.sampleRate > 0 else { return }
        measuring = false
        let length = frames.multipliedReportingOverflow(by: 1_000_000).partialValue / Int64(format.sampleRate)
        connection.report(.measured(length: length, seekable: connection.fileFacts.seekable))
    }

    private func fail(_ reason: String) -> StreamError {
        StreamError(url: connection.url.redacted, reason: reason)
    }
}

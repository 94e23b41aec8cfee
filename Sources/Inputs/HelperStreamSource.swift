import AudioOutput
import FFmpegClient
import FFmpegWire
import PlayerCore

/// A station whose audio is AAC (ADTS), Ogg (Vorbis, Opus, FLAC) or FLAC, decoded by the FFmpeg
/// helper: the connection (libcurl, ICY, reconnects) stays in the daemon as for MP3 stations,
/// and its audio bytes are handed to the helper when it asks (`needInput`).
///
/// Titles: an ICY block's title starts where the audio before it ends — the helper asks for
/// more only once it has decoded everything it was given, and says how much PCM it still
/// holds, so the mark lands within one AAC frame of the song's first sample. An Ogg station's
/// titles (each new chained stream's comments) come from the helper, placed in its PCM.
///
/// Used on the track's decoder queue only (`DecodeAhead`), hence `@unchecked Sendable`.
final class HelperStreamSource: @unchecked Sendable {
    let connection: StationConnection
    private let formatName: String
    private var channel: HelperChannel
    private(set) var format: PCMFormat?
    private var pieces: [ICYDemuxer.Piece] = []
    private var nextPiece = 0
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
    /// PCM bytes delivered so far, and where the current helper's PCM started.
    private var produced: Int64 = 0
    private var sessionStart: Int64 = 0
    private var titles = TitleMarks()
    /// The helper asked for input and waits for it (its read is still open).
    private var awaitingInput = false
    /// PCM the helper held when it asked.
    private var held: Int64 = 0
    private var readOpen = false
    private var fedWithoutAudio = 0
    private var restarts = 0

    /// A stream that gives no audio from this much data is not what it claimed.
    static let maximumBytesWithoutAudio = 512 * 1024
    static let maximumRestarts = 8
    /// How long the helper may take to answer once it has its input.
    static let answerTimeout = 10.0

    init(connection: StationConnection, formatName: String) throws(StreamError) {
        self.connection = connection
        self.formatName = formatName
        do {
            channel = try HelperChannel()
        } catch {
            throw StreamError(url: connection.url.redacted, reason: error.description)
        }
    }

    deinit { channel.close() }

    /// Opens the helper's session and feeds it until it knows the format.
    func prepare() throws(StreamError) -> StreamSource.Outcome {
        if !readOpen {
            try send(.text(.openStream, formatName))
            readOpen = true
        }
        return try converse(into: nil)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(StreamError) -> StreamSource.Outcome {
        if !readOpen {
            try send(WireFrame(.read) { $0.u32(UInt32(buffer.count - buffer.count % (format?.bytesPerFrame ?? 4))) })
            readOpen = true
        }
        return try converse(into: buffer)
    }

    func takeMarks() -> [SourceMark] {
        titles.release(upTo: produced, format: format)
        return titles.take()
    }

    /// Answers the helper's requests for input until its open read (or the opening) is
    /// answered, or the connection has nothing now.
    private func converse(into buffer: UnsafeMutableRawBufferPointer?) throws(StreamError) -> StreamSource.Outcome {
        for _ in 0..<100_000 {
            if awaitingInput {
                switch try feed() {
                case .fed: awaitingInput = false
                case .restarted: continue
                case .other(let outcome): return outcome
                }
            }
            let answer: HelperAnswer
            do {
                answer = try channel.receive(timeout: Self.answerTimeout)
            } catch {
                throw fail(error.description)
            }
            switch answer {
            case .needInput(let heldBytes):
                awaitingInput = true
                held = heldBytes
            case .format(let wire):
                readOpen = false
                let new = PCMFormat(sampleRate: wire.sampleRate, channels: wire.channels)
                if let format, format != new {
                    throw fail("the stream changed its format (\(format.sampleRate) Hz → \(new.sampleRate) Hz)")
                }
                format = new
                guard let buffer else { return .pcm(0) }
                // A helper started afresh after a reconnect: now it can take the read.
                try send(WireFrame(.read) { $0.u32(UInt32(buffer.count - buffer.count % new.bytesPerFrame)) })
                readOpen = true
            case .title(let title):
                titles.add(LiveTitle(text: title.text, artist: title.artist.isEmpty ? nil : title.artist, title: title.title),
                           at: sessionStart + title.byteOffset, format: format)
            case .pcm(let bytes):
                readOpen = false
                guard let buffer, bytes.count <= buffer.count else { throw fail("the helper sent more PCM than asked") }
                bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
                produced += Int64(bytes.count)
                fedWithoutAudio = 0
                restarts = 0
                return .pcm(bytes.count)
            case .end:
                readOpen = false
                return .ended
            default:
                throw fail("an unexpected answer from the helper")
            }
        }
        throw fail("the stream made no progress")
    }

    private enum Fed {
        case fed
        case restarted
        case other(StreamSource.Outcome)
    }

    /// Hands the helper the next audio piece; ICY titles met on the way are placed here.
    private func feed() throws(StreamError) -> Fed {
        for _ in 0..<4096 {
            if nextPiece == pieces.count {
                switch connection.pull(into: &scratch) {
                case .pieces(let new, let afresh):
                    pieces = new
                    nextPiece = 0
                    // A reconnect joins the station anywhere in a frame: a fresh helper on it.
                    if afresh {
                        try restart()
                        return .restarted
                    }
                    continue
                case .starved: return .other(.starved)
                case .ended:
                    try send(WireFrame(.inputEnd))
                    return .fed
                case .playlist: return .other(.playlist)
                case .refused(let reason): throw fail(reason)
                }
            }
            let piece = pieces[nextPiece]
            nextPiece += 1
            switch piece {
            case .audio(let bytes):
                guard !bytes.isEmpty else { continue }
                fedWithoutAudio += bytes.count
                if fedWithoutAudio > Self.maximumBytesWithoutAudio {
                    throw fail("no \(formatName) audio in the first \(Self.maximumBytesWithoutAudio / 1024) KiB of the stream")
                }
                try send(WireFrame(.input, Array(bytes)))
                return .fed
            case .metadata(let block):
                // Everything before the block was decoded: what is out, and what the helper holds.
                if let title = ICYTitle.parse(block) { titles.add(title, at: produced + held, format: format) }
            }
        }
        throw fail("the stream made no progress")
    }

    /// A new helper for what follows a reconnect; it must announce the same format.
    private func restart() throws(StreamError) {
        restarts += 1
        guard restarts <= Self.maximumRestarts else { throw fail("the stream cannot be decoded after \(restarts) reconnects") }
        channel.close()
        do { channel = try HelperChannel() } catch { throw fail(error.description) }
        awaitingInput = false
        held = 0
        sessionStart = produced
        // It opens (asking for input) and announces its format; the read follows then.
        try send(.text(.openStream, formatName))
        readOpen = true
    }

    private func send(_ frame: WireFrame) throws(StreamError) {
        do { try channel.send(frame) } catch { throw fail(error.description) }
    }

    private func fail(_ reason: String) -> StreamError {
        channel.close()
        return StreamError(url: connection.url.redacted, reason: reason)
    }
}

import FFmpegClient
import FFmpegWire
import PlayerCore

/// Decodes an M4A/MP4 (AAC, HE-AAC, ALAC) or ADTS file through the FFmpeg helper process
/// (`aubade-ffmpeg`, one per decoder): FFmpeg never runs inside the daemon.
///
/// Gapless as the other formats: the helper drops the encoder's priming and cuts the end to
/// the exact length of the edit list or `iTunSMPB`, so the sample count is exact and the next
/// track of any format joins without a gap.
///
/// A helper that crashes, hangs (or is stopped) or breaks the protocol fails the `read` or
/// `seek` with a `DecodingError` that says so; it is killed, and the output moves on to the
/// next track. Threading: one thread at a time (the track's decoder queue).
public final class FFmpegDecoder: AudioDecoder, @unchecked Sendable {
    public let path: FilePath
    public let format: PCMFormat
    public let kind: AudioFileKind
    /// The codec FFmpeg decodes ("aac", "alac"), for the log.
    public let codecName: String
    private let channel: HelperChannel
    private var ended = false

    /// How long the helper may take to open a file (its `moov` may sit at the end of a slow
    /// disk) and to answer one read. A stopped helper is noticed within 0.2 s regardless.
    static let openTimeout = 20.0
    static let readTimeout = 10.0
    /// Asked per read: about 0.7 s of CD audio.
    static let readLimit = 128 * 1024

    public init(path: FilePath, kind: AudioFileKind) throws(DecodingError) {
        self.path = path
        self.kind = kind
        let file = try HelperFile(path: path)
        do throws(HelperError) {
            channel = try HelperChannel()
            try channel.send(.text(.openFile, kind.ffmpegFormatName), passing: file.descriptor)
            guard case .format(let wire) = try channel.receive(timeout: Self.openTimeout) else {
                channel.close()
                throw HelperError.broken("the answer to openFile was not a format")
            }
            format = PCMFormat(sampleRate: wire.sampleRate, channels: wire.channels)
            codecName = wire.codecName
        } catch {
            throw DecodingError(path: path, helper: error)
        }
    }

    deinit { channel.close() }

    /// The helper's pid (for the tests that crash, stop or starve it).
    public var helperPID: Int32 { channel.pid }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecodingError) -> Int {
        if ended { return 0 }
        let frameBytes = format.bytesPerFrame
        let wanted = min(buffer.count - buffer.count % frameBytes, Self.readLimit)
        precondition(wanted > 0, "FFmpegDecoder.read needs room for one PCM frame")
        do throws(HelperError) {
            try channel.send(WireFrame(.read) { $0.u32(UInt32(wanted)) })
            while true {
                switch try channel.receive(timeout: Self.readTimeout) {
                case .title:
                    continue  // a file's tags are read when it is queued
                case .pcm(let bytes):
                    guard !bytes.isEmpty, bytes.count <= wanted, bytes.count % frameBytes == 0 else {
                        channel.close()
                        throw HelperError.broken("\(bytes.count) bytes of PCM for \(wanted) asked")
                    }
                    bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
                    return bytes.count
                case .end:
                    ended = true
                    return 0
                default:
                    channel.close()
                    throw HelperError.broken("an answer to read that is not PCM")
                }
            }
        } catch {
            ended = true
            throw DecodingError(path: path, helper: error)
        }
    }

    public func seek(to position: Microseconds) throws(DecodingError) {
        do throws(HelperError) {
            try channel.send(.integer(.seek, max(0, position)))
            guard case .seeked = try channel.receive(timeout: Self.openTimeout) else {
                channel.close()
                throw HelperError.broken("the answer to seek was not seeked")
            }
            ended = false
        } catch {
            throw DecodingError(path: path, helper: error)
        }
    }
}

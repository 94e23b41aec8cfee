import FFmpegKit
import FFmpegWire

/// A station's bytes as the daemon hands them over: when FFmpeg wants more, the helper says
/// `needInput` and waits for an `input` (or `inputEnd`) frame.
///
/// The daemon keeps ICY titles apart and places them itself; the `needInput` it gets carries
/// the PCM still held here, so it knows which sample the bytes before the title end with.
final class FedByteSource: ByteSource {
    private let socket: WireSocket
    private var pending: [UInt8] = []
    private var start = 0
    private var ended = false
    /// PCM decoded and not yet sent, asked at each `needInput`.
    var heldPCMBytes: () -> Int = { 0 }
    /// The daemon broke the protocol or went away: FFmpeg's read fails.
    private(set) var failure: String?

    var size: Int64? { nil }
    var isSeekable: Bool { false }

    init(socket: WireSocket) {
        self.socket = socket
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        if start == pending.count {
            if ended { return 0 }
            do throws(WireError) {
                try socket.send(WireFrame(.needInput) { $0.u64(UInt64(heldPCMBytes())) })
                let frame = try socket.receive()
                switch frame.kind {
                case .input where !frame.payload.isEmpty:
                    pending = frame.payload
                    start = 0
                case .inputEnd:
                    ended = true
                    return 0
                default:
                    failure = "expected input, got \(frame.kind)"
                    return nil
                }
            } catch {
                failure = error.description
                return nil
            }
        }
        let count = min(buffer.count, pending.count - start)
        pending.withUnsafeBytes { source in
            buffer.baseAddress!.copyMemory(from: source.baseAddress! + start, byteCount: count)
        }
        start += count
        return count
    }

    func seek(to offset: Int64) -> Bool { false }
}

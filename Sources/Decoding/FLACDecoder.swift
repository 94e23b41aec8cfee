import FLACKit
import PlayerCore

/// Decodes one FLAC file to PCM (`PCMFormat`: signed 16-bit, native endian, interleaved) at
/// the file's rate and channels (1–8); 8- to 32-bit sources are shifted to 16 bits.
///
/// Gapless: exactly STREAMINFO's `total_samples` frames come out (when the encoder knew the
/// count), so consecutive tracks cut from one recording join seamlessly. Damage is stepped
/// over as libFLAC finds it (lost sync, bad frame headers; a frame with a bad CRC plays as
/// silence of its length), within a bound; a truncated file ends where its data ends.
///
/// Memory: one decoded block (≤ 65535 frames) is held between reads, never more.
///
/// Threading: use from one thread at a time (the decoder queue); `@unchecked Sendable` only
/// so it can be created on one thread and handed to that queue.
public final class FLACDecoder: AudioDecoder, @unchecked Sendable {
    public let path: FilePath
    public private(set) var format: PCMFormat

    /// Damage in a row (no good frame between) after which the file is given up as broken:
    /// enough for a scratched stretch, not for megabytes of junk behind a valid header.
    static let problemLimit = 256
    /// `processSingle` calls one `read` makes without getting audio before it gives up.
    static let stepLimit = 4_096

    private let stream: FLACStreamDecoder
    private let pending: FLACPendingBlock
    private let info: FLACStreamInfo
    private var reachedEnd = false
    /// The stream position reached once the pending block is used up (for `position`).
    private var positionAtEnd: UInt64 = 0

    /// Opens `path` and reads its metadata (STREAMINFO; other blocks are stepped over).
    /// Fails with "not a FLAC file: …" when there is no valid STREAMINFO.
    public init(path: FilePath) throws(DecodingError) {
        self.path = path
        let pending = FLACPendingBlock()
        self.pending = pending
        do {
            let decoder = try path.withCString { (cPath) throws(FLACError) in
                try FLACStreamDecoder(path: cPath,
                                      onStreamInfo: { info in if pending.streamInfo == nil { pending.streamInfo = info } },
                                      onBlock: { block in pending.take(block) },
                                      onProblem: { _ in pending.problemsSinceLastBlock += 1 })
            }
            try decoder.processUntilEndOfMetadata()
            stream = decoder
        } catch {
            throw DecodingError(path: path, openingFLAC: error)
        }
        guard let info = pending.streamInfo, info.isValid else {
            throw DecodingError(path: path, reason: "not a FLAC file: no valid STREAMINFO block")
        }
        self.info = info
        format = PCMFormat(sampleRate: info.sampleRate, channels: info.channels)
    }

    /// PCM frames in the track (STREAMINFO's exact count); nil when the encoder did not know.
    public var lengthInFrames: Int64? {
        info.totalSamples > 0 ? Int64(clamping: info.totalSamples) : nil
    }

    /// Fills `buffer` with whole PCM frames; returns the bytes written, 0 at the end.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecodingError) -> Int {
        let frameBytes = format.bytesPerFrame
        precondition(buffer.count >= frameBytes, "FLACDecoder.read needs room for one PCM frame")
        if reachedEnd { return 0 }
        if pending.remaining == 0 {
            guard try decodeNextBlock() else {
                reachedEnd = true
                return 0
            }
        }
        let frames = pending.copy(into: buffer, maxFrames: buffer.count / frameBytes, channels: format.channels)
        positionAtEnd = pending.nextSample
        return frames * frameBytes
    }

    /// Runs libFLAC until a block with audio is pending; false at the end of the stream.
    private func decodeNextBlock() throws(DecodingError) -> Bool {
        pending.clear()
        for _ in 0..<Self.stepLimit {
            if stream.isFinished { return false }
            do {
                try stream.processSingle()
            } catch {
                // A read error or an abort: what played so far stands; the track ends here.
                if stream.isFinished { return false }
                throw DecodingError(path: path, reason: "decoding failed (\(error))")
            }
            if pending.remaining > 0 { return true }
            if pending.problemsSinceLastBlock > Self.problemLimit {
                throw DecodingError(path: path, reason: "decoding failed: too much damaged data")
            }
        }
        throw DecodingError(path: path, reason: "decoding made no progress")
    }

    /// Moves to `position` (clamped to the track); the next `read` starts with the sample at
    /// that time.
    public func seek(to position: Microseconds) throws(DecodingError) {
        var frame = UInt64(max(0, format.frames(in: position)))
        pending.clear()
        if info.totalSamples > 0 {
            frame = min(frame, info.totalSamples)
            if frame == info.totalSamples {
                // libFLAC refuses to seek to the end itself; there is nothing left to play.
                positionAtEnd = frame
                reachedEnd = true
                return
            }
        }
        reachedEnd = false
        do {
            try stream.seek(toSample: frame)
        } catch {
            throw DecodingError(path: path, reason: "cannot seek (\(error))")
        }
        positionAtEnd = frame
        pending.problemsSinceLastBlock = 0
    }

    /// The time of the next sample `read` will deliver.
    public var position: Microseconds {
        format.duration(ofFrames: Int64(clamping: pending.remaining > 0 ? pending.nextSample : positionAtEnd))
    }
}

extension DecodingError {
    /// A failure opening a FLAC file: system errors in the familiar words, the rest as "not a
    /// FLAC file".
    init(path: FilePath, openingFLAC error: FLACError) {
        if error.isNotARegularFile {
            self.init(path: path, reason: "not a regular file")
        } else if let code = error.systemErrno, error.function == "open" || error.function == "fstat" {
            self.init(path: path, openErrno: code)
        } else if error.systemErrno != nil {
            self.init(path: path, reason: "cannot open: \(error.message)")
        } else {
            self.init(path: path, reason: "not a FLAC file: \(error.message)")
        }
    }
}

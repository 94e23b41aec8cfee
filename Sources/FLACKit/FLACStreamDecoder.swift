internal import CFLAC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One libFLAC stream decoder (`FLAC__StreamDecoder`) over one file.
///
/// libFLAC pushes: each `processSingle()` decodes one metadata block or one audio frame and
/// hands it to the closures given at `init` (`onStreamInfo`, `onBlock`, `onProblem`), on the
/// caller's thread, before it returns. The closures must not call back into the decoder.
///
/// Not thread-safe: use from one thread at a time. The decoder (and the file, which libFLAC
/// closes in `FLAC__stream_decoder_finish`) is freed in `deinit`.
public final class FLACStreamDecoder {
    /// What the C callbacks reach through their `client_data`: the closures. Owned by the
    /// decoder (passed unretained: libFLAC calls back only inside our own calls into it).
    final class Callbacks {
        let onStreamInfo: (FLACStreamInfo) -> Void
        /// Return false to stop decoding (libFLAC's ABORT).
        let onBlock: (FLACBlock) -> Bool
        let onProblem: (FLACDecodeProblem) -> Void

        init(onStreamInfo: @escaping (FLACStreamInfo) -> Void, onBlock: @escaping (FLACBlock) -> Bool,
             onProblem: @escaping (FLACDecodeProblem) -> Void) {
            self.onStreamInfo = onStreamInfo
            self.onBlock = onBlock
            self.onProblem = onProblem
        }
    }

    private let raw: UnsafeMutablePointer<FLAC__StreamDecoder>
    private let callbacks: Callbacks

    /// Opens `path` (a NUL-terminated C string) for decoding: a regular file only, never
    /// blocking on a FIFO (see `RegularFileDescriptor`). Reads nothing yet.
    public init(path: UnsafePointer<CChar>,
                onStreamInfo: @escaping (FLACStreamInfo) -> Void,
                onBlock: @escaping (FLACBlock) -> Bool,
                onProblem: @escaping (FLACDecodeProblem) -> Void) throws(FLACError) {
        guard let decoder = FLAC__stream_decoder_new() else {
            throw FLACError(function: "FLAC__stream_decoder_new", message: "out of memory")
        }
        raw = decoder
        callbacks = Callbacks(onStreamInfo: onStreamInfo, onBlock: onBlock, onProblem: onProblem)
        // From here on deinit frees the decoder, whatever fails below.
        let descriptor = try RegularFileDescriptor.open(path).descriptor
        guard let file = fdopen(descriptor, "rb") else {
            let code = errno
            close(descriptor)
            throw FLACError(function: "fdopen", message: String(cString: strerror(code)), systemErrno: code)
        }
        let context = Unmanaged.passUnretained(callbacks).toOpaque()
        let status = FLAC__stream_decoder_init_FILE(raw, file, flacWrite, flacMetadata, flacError, context)
        guard status == FLAC__STREAM_DECODER_INIT_STATUS_OK else {
            // init_FILE closes nothing when it fails before taking the file.
            fclose(file)
            throw FLACError(function: "FLAC__stream_decoder_init_FILE", message: Self.initStatusText(status))
        }
    }

    deinit {
        // finish also closes the FILE; its result is only an MD5 verdict, which we do not ask for.
        _ = FLAC__stream_decoder_finish(raw)
        FLAC__stream_decoder_delete(raw)
    }

    /// Decodes the next metadata block or audio frame (`FLAC__stream_decoder_process_single`).
    /// Damage it steps over is reported to `onProblem`, not thrown; it throws when the
    /// decoder can go no further (a read error, memory, an abort from `onBlock`).
    public func processSingle() throws(FLACError) {
        guard FLAC__stream_decoder_process_single(raw) != 0 else {
            throw FLACError(function: "FLAC__stream_decoder_process_single", message: stateText)
        }
    }

    /// Reads every metadata block up to the first audio frame.
    public func processUntilEndOfMetadata() throws(FLACError) {
        guard FLAC__stream_decoder_process_until_end_of_metadata(raw) != 0 else {
            throw FLACError(function: "FLAC__stream_decoder_process_until_end_of_metadata", message: stateText)
        }
    }

    /// Moves to PCM frame `sample` (`FLAC__stream_decoder_seek_absolute`): libFLAC decodes the
    /// frame holding it and hands `onBlock` that frame from `sample` on. After a failed seek the
    /// decoder is flushed, so decoding can go on.
    public func seek(toSample sample: UInt64) throws(FLACError) {
        guard FLAC__stream_decoder_seek_absolute(raw, sample) != 0 else {
            let text = stateText
            if FLAC__stream_decoder_get_state(raw) == FLAC__STREAM_DECODER_SEEK_ERROR {
                _ = FLAC__stream_decoder_flush(raw)
            }
            throw FLACError(function: "FLAC__stream_decoder_seek_absolute", message: text)
        }
    }

    /// The decoder has read the whole stream (`FLAC__STREAM_DECODER_END_OF_STREAM`).
    public var isAtEndOfStream: Bool {
        FLAC__stream_decoder_get_state(raw) == FLAC__STREAM_DECODER_END_OF_STREAM
    }

    /// The decoder can decode no more: the end, or a failure it cannot step over.
    public var isFinished: Bool {
        let state = FLAC__stream_decoder_get_state(raw)
        return state == FLAC__STREAM_DECODER_END_OF_STREAM || state == FLAC__STREAM_DECODER_ABORTED
            || state == FLAC__STREAM_DECODER_MEMORY_ALLOCATION_ERROR || state == FLAC__STREAM_DECODER_OGG_ERROR
            || state == FLAC__STREAM_DECODER_UNINITIALIZED
    }

    private var stateText: String {
        String(cString: FLAC__stream_decoder_get_resolved_state_string(raw))
    }

    private static func initStatusText(_ status: FLAC__StreamDecoderInitStatus) -> String {
        switch status {
        case FLAC__STREAM_DECODER_INIT_STATUS_UNSUPPORTED_CONTAINER: "unsupported container"
        case FLAC__STREAM_DECODER_INIT_STATUS_INVALID_CALLBACKS: "invalid callbacks"
        case FLAC__STREAM_DECODER_INIT_STATUS_MEMORY_ALLOCATION_ERROR: "out of memory"
        case FLAC__STREAM_DECODER_INIT_STATUS_ERROR_OPENING_FILE: "cannot open the file"
        case FLAC__STREAM_DECODER_INIT_STATUS_ALREADY_INITIALIZED: "already initialized"
        default: "init status \(status.rawValue)"
        }
    }
}

private func callbacks(_ context: UnsafeMutableRawPointer?) -> FLACStreamDecoder.Callbacks? {
    context.map { Unmanaged<FLACStreamDecoder.Callbacks>.fromOpaque($0).takeUnretainedValue() }
}

private func flacWrite(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ frame: UnsafePointer<FLAC__Frame>?,
                       _ buffer: UnsafePointer<UnsafePointer<FLAC__int32>?>?,
                       _ context: UnsafeMutableRawPointer?) -> FLAC__StreamDecoderWriteStatus {
    guard let callbacks = callbacks(context), let frame, let buffer else {
        return FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
    }
    let header = frame.pointee.header
    // libFLAC numbers frames by sample once it has seen a STREAMINFO; by frame number otherwise.
    let first: UInt64 = header.number_type == FLAC__FRAME_NUMBER_TYPE_SAMPLE_NUMBER
        ? header.number.sample_number : UInt64(header.number.frame_number) * UInt64(header.blocksize)
    let block = FLACBlock(blockSize: Int(header.blocksize), channels: Int(header.channels),
                          bitsPerSample: Int(header.bits_per_sample), sampleRate: Int(header.sample_rate),
                          firstSample: first, buffers: buffer)
    return callbacks.onBlock(block) ? FLAC__STREAM_DECODER_WRITE_STATUS_CONTINUE : FLAC__STREAM_DECODER_WRITE_STATUS_ABORT
}

private func flacMetadata(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ metadata: UnsafePointer<FLAC__StreamMetadata>?,
                          _ context: UnsafeMutableRawPointer?) {
    guard let callbacks = callbacks(context), let metadata, metadata.pointee.type == FLAC__METADATA_TYPE_STREAMINFO else { return }
    callbacks.onStreamInfo(FLACStreamInfo(metadata.pointee.data.stream_info))
}

private func flacError(_ decoder: UnsafePointer<FLAC__StreamDecoder>?, _ status: FLAC__StreamDecoderErrorStatus,
                       _ context: UnsafeMutableRawPointer?) {
    callbacks(context)?.onProblem(FLACDecodeProblem(status))
}

extension FLACStreamInfo {
    init(_ info: FLAC__StreamMetadata_StreamInfo) {
        self.init(sampleRate: Int(info.sample_rate), channels: Int(info.channels),
                  bitsPerSample: Int(info.bits_per_sample), totalSamples: info.total_samples,
                  maxBlockSize: Int(info.max_blocksize))
    }
}

internal import CFLAC

/// Damage libFLAC met while decoding and stepped over (its error callback): the stream goes
/// on at the next frame it can find.
public enum FLACDecodeProblem: Sendable, Equatable {
    /// Bytes that are no frame: libFLAC searches for the next frame sync code.
    case lostSync
    /// A frame header that does not parse.
    case badHeader
    /// A frame whose checksum is wrong: libFLAC delivers it as silence of the right length.
    case frameCRCMismatch
    /// Data this decoder cannot read (a reserved feature); the rest may still play.
    case unparseableStream
    /// A metadata block that is malformed.
    case badMetadata
    case other

    init(_ status: FLAC__StreamDecoderErrorStatus) {
        switch status {
        case FLAC__STREAM_DECODER_ERROR_STATUS_LOST_SYNC: self = .lostSync
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_HEADER: self = .badHeader
        case FLAC__STREAM_DECODER_ERROR_STATUS_FRAME_CRC_MISMATCH: self = .frameCRCMismatch
        case FLAC__STREAM_DECODER_ERROR_STATUS_UNPARSEABLE_STREAM: self = .unparseableStream
        case FLAC__STREAM_DECODER_ERROR_STATUS_BAD_METADATA: self = .badMetadata
        default: self = .other
        }
    }
}

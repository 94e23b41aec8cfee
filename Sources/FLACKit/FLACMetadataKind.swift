internal import CFLAC

/// The type of a FLAC metadata block (the 7-bit type in its header).
public enum FLACMetadataKind: Sendable, Equatable {
    case streamInfo, padding, application, seekTable, vorbisComment, cueSheet, picture
    /// A reserved or invalid type.
    case other(Int)

    init(_ type: FLAC__MetadataType) {
        switch type {
        case FLAC__METADATA_TYPE_STREAMINFO: self = .streamInfo
        case FLAC__METADATA_TYPE_PADDING: self = .padding
        case FLAC__METADATA_TYPE_APPLICATION: self = .application
        case FLAC__METADATA_TYPE_SEEKTABLE: self = .seekTable
        case FLAC__METADATA_TYPE_VORBIS_COMMENT: self = .vorbisComment
        case FLAC__METADATA_TYPE_CUESHEET: self = .cueSheet
        case FLAC__METADATA_TYPE_PICTURE: self = .picture
        default: self = .other(Int(type.rawValue))
        }
    }
}

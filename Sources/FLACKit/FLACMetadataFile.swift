internal import CFLAC
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The metadata blocks at the start of a FLAC file, read one at a time with libFLAC's
/// level-1 interface (`FLAC__Metadata_SimpleIterator`), read-only.
///
/// Walking the blocks reads only their 4-byte headers: a block's body is read when asked for
/// (`streamInfo()`, `comments(…)`, `picture()`), so a reader can skip pictures and refuse a
/// huge comment block by its length, never reading it. An ID3v2 tag before "fLaC" is skipped.
///
/// Not thread-safe; the iterator (and its file) is freed in `deinit`.
public final class FLACMetadataFile {
    private let raw: OpaquePointer
    /// Held open for the iterator's life: libFLAC opens "/proc/self/fd/N", the very file this
    /// descriptor was checked to be (a regular file, not a FIFO swapped in after the check).
    private var descriptor: Int32 = -1
    /// The file's size in bytes, when it was opened.
    public private(set) var fileSize: Int64 = 0

    /// Opens `path` (a NUL-terminated C string) and reads the first block's header.
    /// Fails (`FLAC__metadata_simple_iterator_init`) with "not a FLAC file" when there is no
    /// "fLaC" marker, and with "not a regular file" (`fstat`) for FIFOs, devices, directories.
    public init(path: UnsafePointer<CChar>) throws(FLACError) {
        guard let iterator = FLAC__metadata_simple_iterator_new() else {
            throw FLACError(function: "FLAC__metadata_simple_iterator_new", message: "out of memory")
        }
        raw = iterator
        (descriptor, fileSize) = try RegularFileDescriptor.open(path)
        let reopened = "/proc/self/fd/\(descriptor)"
        let ok = reopened.withCString { FLAC__metadata_simple_iterator_init(raw, $0, 1, 0) }
        guard ok != 0 else { throw error("FLAC__metadata_simple_iterator_init") }
    }

    deinit {
        FLAC__metadata_simple_iterator_delete(raw)
        if descriptor >= 0 { close(descriptor) }
    }

    /// The current block's type.
    public var kind: FLACMetadataKind { FLACMetadataKind(FLAC__metadata_simple_iterator_get_block_type(raw)) }
    /// The current block's body length in bytes (from its header; the body is not read).
    public var length: Int { Int(FLAC__metadata_simple_iterator_get_block_length(raw)) }
    /// The current block is the last metadata block: audio frames follow it.
    public var isLast: Bool { FLAC__metadata_simple_iterator_is_last(raw) != 0 }
    /// Where in the file the current block's 4-byte header starts.
    public var offset: Int64 { Int64(FLAC__metadata_simple_iterator_get_block_offset(raw)) }
    /// Where the current block ends (for the last block: where the audio frames start).
    public var endOffset: Int64 { offset + 4 + Int64(length) }

    /// Moves to the next block's header; false at the last block. Throws when the next header
    /// cannot be read (a truncated or damaged file).
    public func next() throws(FLACError) -> Bool {
        if isLast { return false }
        guard FLAC__metadata_simple_iterator_next(raw) != 0 else {
            throw error("FLAC__metadata_simple_iterator_next")
        }
        return true
    }

    /// The current block as STREAMINFO.
    public func streamInfo() throws(FLACError) -> FLACStreamInfo {
        try withBlock(expecting: FLAC__METADATA_TYPE_STREAMINFO) { FLACStreamInfo($0.pointee.data.stream_info) }
    }

    /// The current block as a VORBIS_COMMENT: the raw "KEY=value" comments (UTF-8, invalid
    /// bytes replaced), at most `limit` of them. The caller checks `length` before reading it.
    public func comments(limit: Int) throws(FLACError) -> [String] {
        try withBlock(expecting: FLAC__METADATA_TYPE_VORBIS_COMMENT) { block in
            let comment = block.pointee.data.vorbis_comment
            let count = min(Int(comment.num_comments), max(0, limit))
            guard count > 0, let entries = comment.comments else { return [] }
            return (0..<count).map { index in
                let entry = entries[index]
                guard let bytes = entry.entry else { return "" }
                return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(entry.length)), as: UTF8.self)
            }
        }
    }

    /// The current block as a PICTURE.
    public func picture() throws(FLACError) -> FLACPicture {
        try withBlock(expecting: FLAC__METADATA_TYPE_PICTURE) { block in
            let picture = block.pointee.data.picture
            let mime = picture.mime_type.map { String(cString: $0) } ?? ""
            let data = picture.data.map { Array(UnsafeBufferPointer(start: $0, count: Int(picture.data_length))) } ?? []
            return FLACPicture(type: picture.type.rawValue, mimeType: mime, data: data)
        }
    }

    /// Reads the current block's body (`FLAC__metadata_simple_iterator_get_block`), hands it
    /// to `body`, and frees it.
    private func withBlock<T>(expecting type: FLAC__MetadataType,
                              _ body: (UnsafeMutablePointer<FLAC__StreamMetadata>) -> T) throws(FLACError) -> T {
        guard FLAC__metadata_simple_iterator_get_block_type(raw) == type else {
            throw FLACError(function: "FLAC__metadata_simple_iterator_get_block_type", message: "not a block of that type")
        }
        guard let block = FLAC__metadata_simple_iterator_get_block(raw) else {
            throw error("FLAC__metadata_simple_iterator_get_block")
        }
        defer { FLAC__metadata_object_delete(block) }
        return body(block)
    }

    private func error(_ function: String) -> FLACError {
        let status = FLAC__metadata_simple_iterator_status(raw)
        return FLACError(function: function, message: Self.statusText(status))
    }

    private static func statusText(_ status: FLAC__Metadata_SimpleIteratorStatus) -> String {
        switch status {
        case FLAC__METADATA_SIMPLE_ITERATOR_STATUS_NOT_A_FLAC_FILE: "not a FLAC file"
        case FLAC__METADATA_SIMPLE_ITERATOR_STATUS_BAD_METADATA: "bad metadata"
        case FLAC__METADATA_SIMPLE_ITERATOR_STATUS_READ_ERROR: "read error (truncated file?)"
        case FLAC__METADATA_SIMPLE_ITERATOR_STATUS_SEEK_ERROR: "seek error (truncated file?)"
        case FLAC__METADATA_SIMPLE_ITERATOR_STATUS_ERROR_OPENING_FILE: "cannot open the file"
        case FLAC__METADATA_SIMPLE_ITERATOR_STATUS_MEMORY_ALLOCATION_ERROR: "out of memory"
        case FLAC__METADATA_SIMPLE_ITERATOR_STATUS_ILLEGAL_INPUT: "illegal input"
        default: "status \(status.rawValue)"
        }
    }
}

import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The format of an audio file, told by its content (magic bytes), never by its name.
public enum AudioFileKind: String, Sendable, Equatable, CaseIterable {
    case mp3, flac, vorbis, opus
    /// An MP4 container (`ftyp` box): M4A with AAC or ALAC, an iTunes download, an MP4 video's
    /// sound. Played through the FFmpeg helper (`FFmpegDecoder`).
    case m4a
    /// Raw AAC in ADTS frames (`.aac`), through the FFmpeg helper.
    case aac

    /// What the tags call it, for `aubade status` and the log.
    public var displayName: String {
        switch self {
        case .mp3: "MP3"
        case .flac: "FLAC"
        case .vorbis: "Ogg Vorbis"
        case .opus: "Opus"
        case .m4a: "M4A"
        case .aac: "AAC"
        }
    }

    /// Played by the FFmpeg helper process, not by a library inside the daemon.
    public var usesFFmpegHelper: Bool { self == .m4a || self == .aac }

    /// The name of FFmpeg's demuxer for it (the helper is told, not left to guess).
    var ffmpegFormatName: String {
        switch self {
        case .aac: "aac"
        default: "mov"
        }
    }

    /// Bytes read from the start of a file to tell its kind: the first Ogg page holds the
    /// codec's identification packet within its first ~60 bytes.
    static let sniffLength = 64

    /// The kind of the file at `path`, from its first bytes (after an ID3v2 tag, which some
    /// tools put in front of FLAC files too). Anything that is not FLAC or Ogg is handed to
    /// libmpg123, which decides whether it is MPEG audio.
    ///
    /// Throws the same words as opening does: "file not found", "permission denied",
    /// "not a regular file", "empty file"; an Ogg file of another codec (Speex, Theora, FLAC
    /// in Ogg) is "unsupported Ogg stream"; a format it knows but does not play (M4A, WMA,
    /// WAV …) is named (`UnsupportedFormat`).
    public static func sniff(path: FilePath) throws(DecodingError) -> AudioFileKind {
        let head = try FileHead.read(path: path, count: sniffLength, skippingID3v2: true)
        return try kind(of: head.bytes, path: path)
    }

    /// The kind of a file that starts with `bytes` (an ID3v2 tag already skipped).
    static func kind(of bytes: [UInt8], path: FilePath) throws(DecodingError) -> AudioFileKind {
        if bytes.starts(with: Array("fLaC".utf8)) { return .flac }
        // ISO base media: a box size, then "ftyp" (M4A, MP4, M4B, 3GP, QuickTime).
        if bytes.count >= 8, bytes[4..<8].elementsEqual("ftyp".utf8) { return .m4a }
        // ADTS: a 12-bit sync word like MPEG audio's, but "layer" 00 (MP3 has 01).
        if bytes.count >= 7, bytes[0] == 0xFF, bytes[1] & 0xF6 == 0xF0 { return .aac }
        if bytes.starts(with: Array("OggS".utf8)) {
            // Page header: 27 bytes + the segment table; the first packet follows.
            guard bytes.count > 27 else { throw DecodingError(path: path, reason: "truncated Ogg file") }
            let segments = Int(bytes[26])
            let packet = bytes.dropFirst(27 + segments)
            if packet.starts(with: [0x01] + Array("vorbis".utf8)) { return .vorbis }
            if packet.starts(with: Array("OpusHead".utf8)) { return .opus }
            throw DecodingError(path: path, reason: "unsupported Ogg stream (not Vorbis or Opus)")
        }
        if let reason = UnsupportedFormat.reason(for: bytes) { throw DecodingError(path: path, reason: reason) }
        return .mp3
    }
}

/// The first bytes of a regular file, opened without blocking on a FIFO and closed at once.
struct FileHead {
    var bytes: [UInt8]
    /// Where `bytes` start in the file (the ID3v2 tag's size when it was skipped).
    var offset: Int = 0
    /// The file's size when it was read.
    var fileSize: Int = 0

    /// `count` bytes from the start (fewer if the file is shorter), after an ID3v2 tag when
    /// `skippingID3v2` (its size is in its header; the tag itself is not read).
    static func read(path: FilePath, count: Int, skippingID3v2: Bool) throws(DecodingError) -> FileHead {
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard descriptor >= 0 else { throw DecodingError(path: path, openErrno: errno) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw DecodingError(path: path, openErrno: errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw DecodingError(path: path, openErrno: EISDIR) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw DecodingError(path: path, reason: "not a regular file") }
        guard info.st_size > 0 else { throw DecodingError(path: path, reason: "empty file") }
        // A few KiB are read: no readahead of hundreds (only advice; ignoring a refusal is fine).
        _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_RANDOM)
        var offset: off_t = 0
        var bytes = try readAt(descriptor, offset: 0, count: max(count, 10), path: path)
        if skippingID3v2, let tagSize = ID3v2Header.totalSize(of: bytes) {
            offset = off_t(tagSize)
            bytes = try readAt(descriptor, offset: offset, count: count, path: path)
        }
        return FileHead(bytes: Array(bytes.prefix(count)), offset: Int(offset), fileSize: Int(info.st_size))
    }

    private static func readAt(_ descriptor: Int32, offset: off_t, count: Int, path: FilePath) throws(DecodingError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let result = buffer.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + filled, count - filled, offset + off_t(filled))
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw DecodingError(path: path, reason: "cannot read: \(String(cString: strerror(errno)))")
            }
            if result == 0 { break }
            filled += result
        }
        return Array(buffer.prefix(filled))
    }
}

/// The 10-byte header of an ID3v2 tag: "ID3", version, flags, and a 28-bit "syncsafe" size.
enum ID3v2Header {
    /// Bytes of the whole tag (header, body, footer) if `bytes` start with one.
    static func totalSize(of bytes: [UInt8]) -> Int? {
        guard bytes.count >= 10, bytes[0] == 0x49, bytes[1] == 0x44, bytes[2] == 0x33,
              bytes[3] != 0xFF, bytes[4] != 0xFF,
              bytes[6...9].allSatisfy({ $0 < 0x80 }) else { return nil }
        let size = bytes[6...9].reduce(0) { $0 << 7 | Int($1) }
        let hasFooter = bytes[5] & 0x10 != 0
        return 10 + size + (hasFooter ? 10 : 0)
    }
}

extension DecodingError {
    /// The words a user knows for why `open` failed.
    init(path: FilePath, openErrno code: Int32) {
        switch code {
        case ENOENT, ENOTDIR: self.init(path: path, reason: "file not found")
        case EACCES, EPERM: self.init(path: path, reason: "permission denied")
        case EISDIR: self.init(path: path, reason: "is a directory, not a file")
        default: self.init(path: path, reason: "cannot open: \(String(cString: strerror(code)))")
        }
    }
}

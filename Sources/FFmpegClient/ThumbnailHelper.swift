import FFmpegWire
#if canImport(Glibc)
import Glibc
#endif

/// Cover thumbnails for the web page (`GET /cover?uri=U&size=S`): a JPEG whose longest side is
/// at most the size asked, made by the FFmpeg helper from the picture embedded in an audio file
/// or from an image file (cover.jpg, folder.png).
///
/// Pictures are hostile input; the helper refuses a picture too big to decode, and a helper
/// that crashes, hangs (10 s) or outgrows its memory on one fails that picture only: the next
/// request starts another. A helper of its own (not `ProbeHelper.shared`'s), started at the
/// first request and stopped 2 s after the last, so a page of covers does not hold up the
/// tags of a folder being queued, nor they the page. Thread-safe: requests take turns.
public final class ThumbnailHelper: Sendable {
    public static let shared = ThumbnailHelper()

    public enum Source: Sendable, Equatable {
        /// The picture embedded in an audio file (ID3 APIC, MP4 `covr`, FLAC PICTURE…).
        case embedded
        /// An image file itself (JPEG, PNG, GIF, BMP, WebP).
        case imageFile
    }

    /// One picture may take this long (a 50-megapixel PNG from a slow disk).
    static let timeout = 10.0

    private let helper: ProbeHelper

    public init(idleTime: Double = ProbeHelper.defaultIdleTime) {
        helper = ProbeHelper(idleTime: idleTime)
    }

    /// The JPEG thumbnail of the picture at `path`: nil when an audio file has no picture;
    /// `.refused` when it cannot be made (not a picture, too big, damaged, the file cannot be
    /// opened); a helper fault otherwise. `maximumSide`: 16…4096 (the page asks 96, 300, 600).
    public func thumbnail(of path: String, source: Source, maximumSide: Int) -> Result<[UInt8]?, HelperError> {
        // Not blocking on a FIFO named cover.jpg; only regular files are read.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
        guard descriptor >= 0 else { return .failure(.refused("cannot open \(path): \(String(cString: strerror(errno)))")) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return .failure(.refused("\(path) is not a file")) }
        return thumbnail(descriptor: descriptor, source: source, maximumSide: maximumSide)
    }

    /// The same for a file the caller opened (the descriptor stays the caller's).
    public func thumbnail(descriptor: Int32, source: Source, maximumSide: Int) -> Result<[UInt8]?, HelperError> {
        guard WireThumbnailRequest.sides.contains(maximumSide) else {
            return .failure(.refused("no thumbnail of \(maximumSide) px (\(WireThumbnailRequest.sides.lowerBound)…\(WireThumbnailRequest.sides.upperBound))"))
        }
        let request = WireThumbnailRequest(source: source == .embedded ? .embedded : .imageFile, maximumSide: maximumSide)
        return Result { () throws(HelperError) -> [UInt8]? in
            switch try helper.ask(request.frame, descriptor: descriptor, timeout: Self.timeout) {
            case .cover(let mimeType, let data):
                // The helper keeps to these; a helper that does not is not believed.
                guard mimeType == "image/jpeg", data.count <= WireThumbnailRequest.byteLimit,
                      data.starts(with: [0xFF, 0xD8]) else {
                    throw HelperError.refused("the helper's thumbnail was not a JPEG of at most \(WireThumbnailRequest.byteLimit) bytes")
                }
                return data
            case .noCover: return nil
            default: throw HelperError.broken("the answer to thumbnail was not a picture")
            }
        }
    }

    /// Stops the helper now (tests; the daemon's exit kills it anyway).
    public func stop() { helper.stop() }

    /// The running helper's pid, if one runs.
    public var pid: Int32? { helper.pid }
}

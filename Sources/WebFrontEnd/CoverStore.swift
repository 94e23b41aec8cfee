import Dispatch
import Glibc
import Handoff
public import PlayerCore

/// Covers as thumbnails at fixed sizes (docs/web.md, `GET /cover`): the embedded picture of a
/// library song, else its folder's `cover.jpg` (or .png, folder.jpg, front.jpg), scaled to JPEG
/// by the FFmpeg helper — pictures are hostile input, and a bad one kills a helper, not the
/// daemon. Made one at a time on a queue of their own, kept in a bounded cache (by file, its
/// change time and the size), answered with an ETag so a page asks again for nothing.
public final class CoverStore: Sendable {
    public enum Source: Sendable { case embedded, imageFile }
    /// The thumbnail of `path` (`source`), at most `side` pixels a side: JPEG bytes, nil when
    /// it has no picture, or an error in words.
    public typealias Thumbnailer = @Sendable (_ path: FilePath, _ source: Source, _ side: Int) -> Result<[UInt8]?, CoverError>

    public struct CoverError: Error, Sendable {
        public var message: String
        public init(_ message: String) { self.message = message }
    }

    static let sizes = [96, 300, 600]
    static let folderNames = ["cover.jpg", "cover.png", "cover.webp", "folder.jpg", "folder.png", "front.jpg", "front.png"]
    static let cacheBytes = 16 << 20

    private struct Key: Hashable {
        var path: FilePath
        var changed: Int64
        var size: Int
    }

    private struct Entry {
        var key: Key
        var jpeg: [UInt8]?
    }

    private let thumbnails: Thumbnailer
    private let queue = DispatchQueue(label: "aubade.web.covers")
    private let cache = LockedState([Entry]())

    init(thumbnails: @escaping Thumbnailer) {
        self.thumbnails = thumbnails
    }

    /// The answer for the cover of the song at `path`, later, on the covers' queue.
    func cover(of path: FilePath, size: Int, ifNoneMatch: String?, reply: @escaping @Sendable (WebResponse) -> Void) {
        queue.async { [self] in
            guard let changed = Self.changeTime(path) else { return reply(WebReply.error(404, "no such file")) }
            let key = Key(path: path, changed: changed, size: size)
            let etag = "\"\(PageFiles.hash(path.bytes + Self.bytes(of: changed) + Self.bytes(of: Int64(size))))\""
            let headers: [(name: String, value: String)] = [("ETag", etag), ("Cache-Control", "private, max-age=86400")]
            let jpeg: [UInt8]?
            if let cached = cached(key) {
                jpeg = cached
            } else {
                jpeg = make(path, size: size)
                remember(Entry(key: key, jpeg: jpeg))
            }
            guard let jpeg else { return reply(WebReply.error(404, "no cover")) }
            if ifNoneMatch == etag { return reply(WebResponse(status: 304, headers: headers)) }
            reply(WebResponse(status: 200, headers: [("Content-Type", "image/jpeg")] + headers, body: jpeg))
        }
    }

    private func make(_ path: FilePath, size: Int) -> [UInt8]? {
        if case .success(let jpeg?) = thumbnails(path, .embedded, size) { return jpeg }
        let folder = path.parent
        for name in Self.folderNames {
            let picture = folder.appending(FilePath(stringLiteral: name))
            guard Self.changeTime(picture) != nil else { continue }
            if case .success(let jpeg?) = thumbnails(picture, .imageFile, size) { return jpeg }
        }
        return nil
    }

    private func cached(_ key: Key) -> [UInt8]?? {
        cache.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return .some(entry.jpeg)
        }
    }

    private func remember(_ entry: Entry) {
        cache.withLock { entries in
            entries.append(entry)
            var total = entries.reduce(0) { $0 + ($1.jpeg?.count ?? 0) + 64 }
            while total > Self.cacheBytes || entries.count > 4096, !entries.isEmpty {
                total -= (entries.removeFirst().jpeg?.count ?? 0) + 64
            }
        }
    }

    private static func changeTime(_ path: FilePath) -> Int64? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
    }

    private static func bytes(of value: Int64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) }
    }
}

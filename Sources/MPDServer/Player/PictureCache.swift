import Decoding
import Handoff
import PlayerCore

/// The last few embedded pictures read, by file: a client fetches a picture in chunks of its
/// binary limit (8 KiB by default: 60 requests for a 500 KB cover), and each would otherwise
/// read and parse the file again. Bounded by count and bytes; used on the files queue.
final class PictureCache: Sendable {
    private struct Entry {
        var path: FilePath
        var version: Int64
        var picture: CoverArt?
    }

    private let entries = LockedState([Entry]())
    static let count = 8
    static let bytes = 48 << 20

    /// The picture read from `path` at this `version` of the file (`.some(nil)`: it has none).
    func picture(of path: FilePath, version: Int64) -> CoverArt?? {
        entries.withLock { entries in
            guard let index = entries.firstIndex(where: { $0.path == path && $0.version == version }) else { return nil }
            let entry = entries.remove(at: index)
            entries.append(entry)
            return .some(entry.picture)
        }
    }

    func remember(_ picture: CoverArt?, of path: FilePath, version: Int64) {
        entries.withLock { entries in
            entries.removeAll { $0.path == path }
            entries.append(Entry(path: path, version: version, picture: picture))
            while entries.count > Self.count || entries.reduce(0, { $0 + ($1.picture?.data.count ?? 0) }) > Self.bytes {
                entries.removeFirst()
            }
        }
    }
}

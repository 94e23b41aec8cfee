import Foundation

/// Single music files made once for every test and phase: what a fixture maker writes from its
/// arguments alone (a tone's length, rate and tags, an encoder's options) is the same bytes every
/// time, yet each test process made its own, in every phase that runs the test (a full `make
/// test` ran sox about 840 times, lame 240 and ffmpeg 250, most of them for files made before).
extension FixtureCache {
    /// Puts at `path` the file `make` writes (given the path to write, with `path`'s extension:
    /// the tools pick the format by it) from nothing but `key`, the maker's arguments. The
    /// first process that asks makes it into the cache; every call then gets a copy of its own,
    /// as a test may change the file. `recipe` is the maker's source file: an edited maker
    /// makes its files anew. `key` nil: the output depends on more than the arguments (a
    /// random serial number, another file's contents), and `make` writes at `path` itself.
    static func file(at path: String, key: [String]?, recipe: String = #filePath,
                     make: (String) throws -> Void) throws {
        guard let key else { return try make(path) }
        let suffix = (path as NSString).pathExtension
        let recipeText = (try? Data(contentsOf: URL(fileURLWithPath: recipe))) ?? Data()
        let identity = recipeText + Data(([suffix] + key).joined(separator: "\u{0}").utf8)
        let folder = root.appendingPathComponent("files", isDirectory: true)
        let name = String(fnv1a(identity), radix: 16) + (suffix.isEmpty ? "" : "." + suffix)
        let cached = folder.appendingPathComponent(name).path
        if !FileManager.default.fileExists(atPath: cached) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Made under a name of this call's own (the makers write side files beside it, named
            // after it), then renamed into place whole: processes that ask at once each make it,
            // and whichever rename comes last leaves the same bytes.
            let making = folder.appendingPathComponent("making-\(getpid())-\(UUID().uuidString)-" + name).path
            do {
                try make(making)
                guard rename(making, cached) == 0 else { throw DaemonError("putting \(name) in the fixture cache: errno \(errno)") }
            } catch {
                try? FileManager.default.removeItem(atPath: making)
                throw error
            }
        }
        try? FileManager.default.removeItem(atPath: path)
        try FileManager.default.copyItem(atPath: cached, toPath: path)
    }
}

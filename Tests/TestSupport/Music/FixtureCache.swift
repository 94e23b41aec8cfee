import Foundation

/// Test music made once and kept in `.build/test-fixtures` (or `$AUBADE_FIXTURE_CACHE`): under
/// `swift test --parallel` every test runs in a process of its own, and making the music (sox,
/// lame, flac, oggenc) costs seconds a process. The first process that needs a folder makes it,
/// under a lock, into a folder named after the recipe's source file and a hash of its text (so
/// an edited recipe makes its music anew); every process then copies the folder into its own
/// `TestRunDirectory`, because a test may change or remove its files and the cache must stay as
/// made. A copy of the few MB takes milliseconds.
enum FixtureCache {
    static var root: URL {
        if let path = ProcessInfo.processInfo.environment["AUBADE_FIXTURE_CACHE"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        return Repository.file(".build/test-fixtures")
    }

    /// This process's copy of the folder `name`, made by `make` (given an empty folder) the
    /// first time any process asks. `recipe` is the source file that makes it; `variant` names
    /// what else the music depends on (a size chosen by the environment), so that runs which
    /// differ there never share a folder.
    static func folder(_ name: String, recipe: String = #filePath, variant: String = "",
                       make: (URL) throws -> Void) throws -> URL {
        let copy = TestRunDirectory.url.appendingPathComponent(name, isDirectory: true)
        if FileManager.default.fileExists(atPath: copy.path) { return copy }
        let made = try cached(name, recipe: recipe, variant: variant, make: make)
        // Copied aside, then renamed into place: the tests of one process may ask at once (Swift
        // Testing runs a parameterized test's cases side by side), and a folder in place must
        // be whole (seen: a copy still under way returned, its second file not there yet).
        let partial = TestRunDirectory.url.appendingPathComponent(".\(name).copying-\(UUID().uuidString)", isDirectory: true)
        // As cp -a would (TreeCopy), or with cp -a itself for what TreeCopy does not copy.
        do {
            try TreeCopy.copy(made.path, to: partial.path)
        } catch {
            Fixtures.remove(partial.path)
            let copied = try Shell.run("cp", ["-a", made.path, partial.path], timeout: 60)
            guard copied.succeeded else {
                Fixtures.remove(partial.path)
                throw DaemonError("copying the fixtures \(name): \(copied) (in this process: \(error))")
            }
        }
        try? FileManager.default.removeItem(at: partial.appendingPathComponent(".complete"))
        if rename(partial.path, copy.path) != 0 {
            // Another test of this process put its copy in place first: that one is whole.
            let error = errno
            try? FileManager.default.removeItem(at: partial)
            guard FileManager.default.fileExists(atPath: copy.path) else {
                throw DaemonError("putting the fixtures \(name) in place: errno \(error)")
            }
        }
        return copy
    }

    /// The cached folder itself, made if needed (read it, never change it).
    private static func cached(_ name: String, recipe: String, variant: String,
                               make: (URL) throws -> Void) throws -> URL {
        let text = ((try? Data(contentsOf: URL(fileURLWithPath: recipe))) ?? Data()) + Data(variant.utf8)
        let version = String(fnv1a(text), radix: 16)
        let final = root.appendingPathComponent("\(name)-\(version)", isDirectory: true)
        let complete = final.appendingPathComponent(".complete")
        if FileManager.default.fileExists(atPath: complete.path) { return final }

        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let lock = open(root.appendingPathComponent("\(name).lock").path, O_CREAT | O_RDWR | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw DaemonError("cannot open the fixture lock in \(root.path): errno \(errno)") }
        defer { close(lock) }
        while flock(lock, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(lock, LOCK_UN) }
        if FileManager.default.fileExists(atPath: complete.path) { return final }

        let building = root.appendingPathComponent("\(name)-\(version).building-\(getpid())", isDirectory: true)
        try? FileManager.default.removeItem(at: building)
        try? FileManager.default.removeItem(at: final)
        try FileManager.default.createDirectory(at: building, withIntermediateDirectories: true)
        do {
            try make(building)
            try Data().write(to: building.appendingPathComponent(".complete"))
            try FileManager.default.moveItem(at: building, to: final)
        } catch {
            try? FileManager.default.removeItem(at: building)
            throw error
        }
        return final
    }

    static func fnv1a(_ data: Data) -> UInt64 {
        data.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}

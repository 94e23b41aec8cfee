import Foundation

/// Things in a file system that a URI from the bus can name and that are not music: a FIFO
/// (opening it blocks), a directory named `x.mp3`, symlink loops (a file and a directory one),
/// a path of more than 5,000 characters (deeper than PATH_MAX), device and proc files — and
/// URIs with invalid percent-encoding, other schemes, no scheme. Made in a folder of its own,
/// removed by `remove()` (the deep path too, which FileManager cannot name whole).
/// `file:///` is not among `uris`: scanning the whole file system takes seconds, so callers
/// send it once on purpose rather than at random.
final class HostileFiles {
    let folder: URL
    private(set) var uris: [String] = []

    init(in parent: URL) throws {
        folder = parent.appendingPathComponent("hostile-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.path

        let fifo = path + "/fifo.mp3"
        guard mkfifo(fifo, 0o600) == 0 else { throw DaemonError("mkfifo \(fifo): errno \(errno)") }
        let directory = path + "/x.mp3"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: path + "/loop1.mp3", withDestinationPath: path + "/loop2.mp3")
        try FileManager.default.createSymbolicLink(atPath: path + "/loop2.mp3", withDestinationPath: path + "/loop1.mp3")
        // A folder that contains itself: scanning it must notice the loop.
        try FileManager.default.createSymbolicLink(atPath: path + "/x.mp3/again", withDestinationPath: directory)
        try FileManager.default.createSymbolicLink(atPath: path + "/dangling.mp3", withDestinationPath: path + "/nothing")
        let deep = try Self.makeDeepFolder(under: path, totalLength: 5_200)
        // A playlist that lists the FIFO, a device and itself.
        let list = Data("\(fifo)\n/dev/zero\n\(path)/list.m3u\n".utf8)
        guard FileManager.default.createFile(atPath: path + "/empty.mp3", contents: Data()),
              FileManager.default.createFile(atPath: path + "/list.m3u", contents: list) else {
            throw DaemonError("cannot write the hostile files in \(path)")
        }

        func file(_ path: String) -> String { "file://" + (path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path) }
        uris = [
            "file://", "file:", "file:///proc/self/mem", "file:///proc/self/fd/0", "file:///proc/self/fd/2",
            "file:///dev/zero", "file:///dev/urandom", "file:///dev/null", "file:///dev/stdin",
            file(fifo), file(directory), file(path + "/loop1.mp3"), file(path + "/dangling.mp3"), file(path + "/empty.mp3"),
            file(path + "/list.m3u"), file(deep), file(deep + "/a.mp3"),
            "file:///" + String(repeating: "a", count: 5_000) + ".mp3",
            "file:///" + String(repeating: "a/", count: 2_500) + "x.mp3",
            "file:///tmp/%ZZ.mp3", "file:///%", "file:///%E9t%E9.mp3", "file:///%00.mp3", "file:///a%2Fb.mp3",
            "file:/%2e%2e/%2e%2e/etc/passwd", "file://remote.example/x.mp3", "FILE:///dev/zero",
            "http://127.0.0.1:9/x.mp3", "javascript:alert(1)", "/proc/self/mem", "", "%", "file:///\u{1B}[2J.mp3",
        ]
    }

    /// Folders of 200-character names, nested until the path is `totalLength` long; made with
    /// mkdirat from a descriptor of the parent, because no single path may be that long.
    private static func makeDeepFolder(under root: String, totalLength: Int) throws -> String {
        let name = String(repeating: "d", count: 200)
        var path = root
        var parent = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parent >= 0 else { throw DaemonError("open \(root): errno \(errno)") }
        defer { close(parent) }
        while path.utf8.count < totalLength {
            guard mkdirat(parent, name, 0o700) == 0 else { throw DaemonError("mkdirat in \(path.prefix(80))…: errno \(errno)") }
            let child = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            guard child >= 0 else { throw DaemonError("openat: errno \(errno)") }
            close(parent)
            parent = child
            path += "/" + name
        }
        return path
    }

    /// Removes everything (`rm -rf` walks the deep folder relative to each level).
    func remove() {
        _ = try? Shell.run("rm", ["-rf", folder.path])
    }
}

import Decoding
import PlayerCore

/// One `QueueLoader.load` call in progress: the tracks and problems found so far, plus the
/// guards that keep symlink loops and self-including playlists from running forever.
final class LoadSession {
    private let reader: @Sendable (String) throws(DecodingError) -> Track
    private(set) var tracks: [Track] = []
    private(set) var problems: [LoadProblem] = []
    /// Playlists being expanded right now (a playlist may list another, but not itself).
    private var openPlaylists: Set<String> = []

    init(reader: @escaping @Sendable (String) throws(DecodingError) -> Track) {
        self.reader = reader
    }

    private func report(_ path: String, _ reason: String) {
        problems.append(LoadProblem(path: path, reason: reason))
    }

    /// Queues whatever the absolute `path` names: an MP3 file, a directory tree, a playlist.
    func expand(_ path: String) {
        let kind: FileSystem.Kind
        do {
            kind = try FileSystem.kind(of: path)
        } catch {
            report(path, error.reason)
            return
        }
        switch kind {
        case .directory(let id):
            var visited: Set<FileSystem.DirectoryID> = [id]
            let found = directoryTracks(path, visited: &visited)
            if found.isEmpty { report(path, "no playable MP3 files in directory") }
            tracks += found
        case .regularFile where FileSystem.hasExtension(path, in: M3UPlaylist.extensions):
            expandPlaylist(path)
        case .regularFile:
            if let track = read(path) { tracks.append(track) }
        case .other:
            report(path, "not a regular file")
        }
    }

    private func read(_ path: String) -> Track? {
        do {
            return try reader(path)
        } catch {
            report(path, error.reason)
            return nil
        }
    }

    // MARK: Directories

    /// The MP3s of a directory tree: each directory's own files in album order, then its
    /// subdirectories in natural name order. Hidden entries are skipped; `visited` (device and
    /// inode) stops symlink loops and a folder linked twice.
    private func directoryTracks(_ directory: String, visited: inout Set<FileSystem.DirectoryID>) -> [Track] {
        let names: [String]
        do {
            names = try FileSystem.contents(ofDirectory: directory)
        } catch {
            report(directory, error.reason)
            return []
        }
        var files: [String] = []
        var subdirectories: [String] = []
        for name in names where !name.hasPrefix(".") {
            let path = directory == "/" ? "/" + name : directory + "/" + name
            let isMP3 = FileSystem.hasExtension(name, in: ["mp3"])
            switch try? FileSystem.kind(of: path) {
            case .directory(let id)?:
                if visited.insert(id).inserted { subdirectories.append(path) }
            case .regularFile? where isMP3:
                files.append(path)
            case nil where isMP3:
                report(path, "broken link")
            default:
                break
            }
        }
        // Reading in name order makes the problems come out in a stable, readable order.
        files.sort { NaturalOrder.areInIncreasingOrder(FileSystem.name(of: $0), FileSystem.name(of: $1)) }
        let own = files.compactMap(read).sorted(by: Self.albumOrder)
        subdirectories.sort(by: NaturalOrder.areInIncreasingOrder)
        return own + subdirectories.flatMap { directoryTracks($0, visited: &visited) }
    }

    /// Disc number, then track number, then file name in natural order. An untagged disc
    /// counts as disc 1; an untagged track goes after the numbered ones.
    static func albumOrder(_ a: Track, _ b: Track) -> Bool {
        let discs = (a.discNumber ?? 1, b.discNumber ?? 1)
        if discs.0 != discs.1 { return discs.0 < discs.1 }
        let numbers = (a.trackNumber ?? Int.max, b.trackNumber ?? Int.max)
        if numbers.0 != numbers.1 { return numbers.0 < numbers.1 }
        return NaturalOrder.areInIncreasingOrder(FileSystem.name(of: a.path), FileSystem.name(of: b.path))
    }

    // MARK: Playlists

    private func expandPlaylist(_ path: String) {
        guard openPlaylists.insert(path).inserted else {
            report(path, "playlist includes itself")
            return
        }
        defer { openPlaylists.remove(path) }
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(ofFile: path)
        } catch {
            report(path, error.reason)
            return
        }
        let before = tracks.count
        for entry in M3UPlaylist.entries(in: bytes, playlistDirectory: FileSystem.parent(of: path)) {
            switch entry {
            case .path(let entryPath): expand(entryPath)
            case .unusable(let text, let reason): report(text, reason)
            }
        }
        if tracks.count == before { report(path, "no playable files in playlist") }
    }
}

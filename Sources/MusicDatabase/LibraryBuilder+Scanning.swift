import Decoding
import Library
import PlayerCore

/// What one update found worth saying: counted, so the log gets one summary line per update
/// whatever the number of bad files.
struct ScanReport {
    var read = 0
    var failed = 0
    /// The first few failures, for the summary line.
    var failures: [String] = []
    /// Where the song limit stopped the scan (the first file left out).
    var limitReachedAt: FilePath?
    var changed = false
    /// How many more songs the library may take (the song limit less what is kept).
    var songsLeft = Int.max
    /// How many more folders one scan may list: symlinks that fan out (a folder linking to
    /// another twice, again and again, loop-free) cannot make a scan endless.
    var foldersLeft = ScanReport.folderLimit
    /// Where the folder limit stopped the scan.
    var folderLimitReachedAt: FilePath?

    static let folderLimit = 1_000_000
    /// Folders nested deeper than this are not scanned: the tree is walked recursively, and a
    /// hostile tree (or chain of links) must not exhaust the queue's stack.
    static let depthLimit = 128

    static let failuresListed = 3

    mutating func fail(_ description: String) {
        failed += 1
        if failures.count < Self.failuresListed { failures.append(description) }
    }
}

/// How a scan treats files it already knows.
struct ScanRules {
    var reader: (FilePath) throws(DecodingError) -> Track
    /// Read every file again, changed or not (`rescan`).
    var rescan = false
    /// Called with each folder just before it is listed: the library watches it then, so a
    /// file added while the scan runs is seen (by the scan, or by the watch).
    var willList: ((FilePath) -> Void)?
}

extension LibraryBuilder {
    static let playlistExtensions: Set<String> = ["m3u", "m3u8", "pls"]

    /// Scans the folder `node` at `path` again: files that are new or whose size or
    /// modification time changed are read, vanished ones dropped; with `recursive`, every
    /// subfolder likewise, else only new subfolders are scanned (whole) and vanished ones
    /// dropped. Returns false when the folder itself is gone or unreadable.
    /// `report.songsLeft` is the song limit less every song the tree holds (start with
    /// `limit - songCount`): songs found are taken from it, songs gone given back.
    mutating func refresh(_ node: FolderNode, at path: FilePath, ancestors: [FileSystem.FileID], recursive: Bool,
                          rules: ScanRules, report: inout ScanReport) -> Bool {
        guard let status = try? FileSystem.status(of: path), case .directory(let id) = status.kind else { return false }
        guard report.foldersLeft > 0 else {
            if report.folderLimitReachedAt == nil { report.folderLimitReachedAt = path }
            return true  // kept as it was
        }
        report.foldersLeft -= 1
        node.fileID = id
        var changed = node.modified != status.modified
        node.modified = status.modified
        rules.willList?(path)
        let names: [FilePath]
        do {
            names = try FileSystem.contents(ofDirectory: path)
        } catch {
            report.fail("\(path.displayString): \(error.reason)")
            return false
        }
        var known: [[UInt8]: SongRecord] = [:]
        for song in node.songs { known[strings.byteArray(song.rawName)] = song }
        // By name, so a folder of 100,000 subfolders is not searched once per subfolder.
        var knownFolders: [[UInt8]: FolderNode] = [:]
        for child in node.children { knownFolders[child.rawName] = child }
        var knownPlaylists: [[UInt8]: PlaylistRecord] = [:]
        for playlist in node.playlists { knownPlaylists[strings.byteArray(playlist.rawName)] = playlist }
        var songs: [SongRecord] = [], playlists: [PlaylistRecord] = [], children: [FolderNode] = []
        // This folder's own songs are counted again as they are kept or read.
        report.songsLeft += node.songs.count
        // Reading in name order makes the log's first failures and the limit's cut stable.
        for name in names.sorted(by: FilePath.bytewiseLess) where !EntryNames.isSkipped(name.bytes) {
            let child = path.appending(name)
            guard let info = try? FileSystem.status(of: child) else { continue }  // vanished, or a broken link
            switch info.kind {
            case .directory(let childID):
                // A symlink back up the tree (mpd's FindAncestorLoop), or a kernel file system.
                if ancestors.contains(childID) || childID == id { continue }
                guard ancestors.count + 1 < ScanReport.depthLimit else {
                    if report.folderLimitReachedAt == nil { report.folderLimitReachedAt = child }
                    continue
                }
                if childID.device != id.device && FileSystem.isKernelFileSystem(child) { continue }
                let existing = knownFolders[name.bytes]
                let folder = existing ?? FolderNode(rawName: name.bytes)
                if existing == nil || recursive {
                    let alive = refresh(folder, at: child, ancestors: ancestors + [id], recursive: true, rules: rules, report: &report)
                    if !alive { continue }
                }
                if !folder.isEmpty { children.append(folder) }
            case .regularFile where name.hasExtension(in: LoadSession.musicExtensions):
                let old = known[name.bytes]
                if let old, !rules.rescan, old.modified == info.modified, old.size == info.size, report.songsLeft > 0 {
                    songs.append(old)
                    report.songsLeft -= 1
                    continue
                }
                changed = true
                guard report.songsLeft > 0 else {
                    if report.limitReachedAt == nil { report.limitReachedAt = child }
                    continue
                }
                do {
                    let track = try rules.reader(child)
                    songs.append(record(for: track, rawName: name.bytes, modified: info.modified, size: info.size))
                    report.songsLeft -= 1
                    report.read += 1
                } catch {
                    // A file that vanished between the listing and the read is simply gone.
                    if (try? FileSystem.status(of: child)) != nil { report.fail(error.description) }
                }
            case .regularFile where name.hasExtension(in: Self.playlistExtensions):
                if let old = knownPlaylists[name.bytes], old.modified == info.modified, old.size == info.size {
                    playlists.append(old)
                } else {
                    playlists.append(PlaylistRecord(name: 0, rawName: strings.intern(name.bytes), modified: info.modified,
                                                    size: info.size))
                    changed = true
                }
            default:
                continue
            }
        }
        if songs.count != node.songs.count || playlists.count != node.playlists.count
            || children.map(ObjectIdentifier.init) != node.children.map(ObjectIdentifier.init) {
            changed = true
        }
        let kept = Set(children.map(ObjectIdentifier.init))
        for gone in node.children where !kept.contains(ObjectIdentifier(gone)) { report.songsLeft += gone.songCount }
        // Unchanged, the folder keeps its entries as they are (named and in mpd's order).
        if changed {
            node.songs = songs
            node.playlists = playlists
            node.children = children
            node.isOrdered = false
            report.changed = true
        }
        return true
    }

    /// Scans every music folder (an `update` or `rescan` of the whole library).
    mutating func refreshAll(rules: ScanRules, report: inout ScanReport) {
        if folders.count == 1 {
            if !refresh(root, at: folders[0], ancestors: [], recursive: true, rules: rules, report: &report), !root.isEmpty {
                root.songs = []
                root.playlists = []
                root.children = []
                root.isOrdered = false
                report.changed = true
            }
            return
        }
        for (folder, node) in zip(folders, root.children) {
            if !refresh(node, at: folder, ancestors: [], recursive: true, rules: rules, report: &report), !node.isEmpty {
                node.songs = []
                node.playlists = []
                node.children = []
                node.isOrdered = false
                report.changed = true
            }
        }
        root.isOrdered = false
    }

    /// The folder node and its real path for a path of raw names below the root (the parts of
    /// a URI mapped to names on disk), as far as the tree has it.
    func node(atRawPath parts: [[UInt8]]) -> (node: FolderNode, path: FilePath, ancestors: [FileSystem.FileID], rest: ArraySlice<[UInt8]>)? {
        var node = root
        var path: FilePath
        var ancestors: [FileSystem.FileID] = []
        var rest = parts[...]
        if folders.count == 1 {
            path = folders[0]
        } else {
            guard let top = rest.first, let index = root.children.firstIndex(where: { $0.rawName == top }) else { return nil }
            node = root.children[index]
            path = folders[index]
            rest = rest.dropFirst()
        }
        while let part = rest.first, let child = node.child(named: part), let component = FilePath(bytes: part) {
            if let id = node.fileID { ancestors.append(id) }
            node = child
            path = path.appending(component)
            rest = rest.dropFirst()
        }
        return (node, path, ancestors, rest)
    }
}

import PlayerCore

/// Everything one snapshot knows, in flat arrays: folders depth first (the root first, each
/// folder followed by its subtree), songs in the order mpd walks them (a folder's own songs,
/// then its subfolders' in order), so the songs below any folder are one range.
struct LibraryContent: Sendable {
    var strings = StringTable()
    /// Every song's tags, packed (`PackedTag`), each song's a range in `TagKind` order.
    var tags: [UInt32] = []
    var songs: [SongRecord] = []
    var directories: [DirectoryRecord] = []
    var playlists: [PlaylistRecord] = []
    var formats: [AudioFormatFacts] = []
    /// The music folders: with one, it is the root; with several, each is a top-level folder
    /// (whose `rawName` is the folder's whole path).
    var folders: [FilePath] = []

    /// An empty library of `folders` (a root with nothing in it).
    init(folders: [FilePath]) {
        self.folders = folders
        directories = [DirectoryRecord(name: 0, rawName: 0, parent: DirectoryRecord.none, end: 1, songStart: 0, songCount: 0,
                                       songEnd: 0, playlistStart: 0, playlistCount: 0, modified: 0)]
    }

    func tagRange(of song: SongRecord) -> Range<Int> {
        Int(song.tagStart)..<Int(song.tagStart) + Int(song.tagCount)
    }

    /// The value ids of one kind in a song's tags.
    func values(_ kind: UInt8, of song: SongRecord) -> some Sequence<UInt32> {
        tags[tagRange(of: song)].lazy.filter { PackedTag.kind($0) == kind }.map(PackedTag.value)
    }

    func firstValue(_ kind: UInt8, of song: SongRecord) -> UInt32? {
        for tag in tags[tagRange(of: song)] where PackedTag.kind(tag) == kind { return PackedTag.value(tag) }
        return nil
    }

    func hasValue(_ kind: UInt8, in song: SongRecord) -> Bool { firstValue(kind, of: song) != nil }

    /// The subfolders of a folder, in order.
    func children(of index: UInt32) -> [UInt32] {
        var result: [UInt32] = []
        var child = index + 1
        let end = directories[Int(index)].end
        while child < end {
            result.append(child)
            child = directories[Int(child)].end
        }
        return result
    }

    /// "A/B" for a folder, "" for the root.
    func uri(ofDirectory index: UInt32) -> String {
        var names: [UInt32] = []
        var current = index
        while current != 0, current != DirectoryRecord.none {
            names.append(directories[Int(current)].name)
            current = directories[Int(current)].parent
        }
        return names.reversed().map(strings.string).joined(separator: "/")
    }

    func uri(of song: SongRecord, directoryURI: String) -> String {
        directoryURI.isEmpty ? strings.string(song.name) : directoryURI + "/" + strings.string(song.name)
    }

    /// The real path of a folder: the music folder's path, then the names on disk.
    func realPath(ofDirectory index: UInt32) -> FilePath? {
        var names: [UInt32] = []
        var current = index
        while current != 0, current != DirectoryRecord.none {
            names.append(directories[Int(current)].rawName)
            current = directories[Int(current)].parent
        }
        var path: FilePath
        if folders.count == 1 {
            path = folders[0]
        } else {
            guard let top = names.popLast(), let folder = FilePath(bytes: strings.byteArray(top)) else { return nil }
            path = folder
        }
        for name in names.reversed() {
            guard let component = FilePath(bytes: strings.byteArray(name)) else { return nil }
            path = path.appending(component)
        }
        return path
    }

    func format(of song: SongRecord) -> AudioFormatFacts? {
        song.format == 0 || Int(song.format) > formats.count ? nil : formats[Int(song.format) - 1]
    }

    /// The song as a query answers it.
    func librarySong(_ song: SongRecord, directoryURI: String, directoryPath: FilePath?) -> LibrarySong {
        let name = FilePath(bytes: strings.byteArray(song.rawName)) ?? ""
        let tagValues = tags[tagRange(of: song)].map { tag in
            TagValue(PackedTag.kinds[Int(PackedTag.kind(tag))], strings.string(PackedTag.value(tag)))
        }
        return LibrarySong(uri: uri(of: song, directoryURI: directoryURI), path: directoryPath?.appending(name) ?? name,
                           lastModified: song.modifiedSeconds, duration: song.duration, format: format(of: song),
                           tags: tagValues)
    }
}

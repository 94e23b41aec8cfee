import Library
import PlayerCore

/// The library as the update keeps it, on the library's queue: the folder tree (`FolderNode`)
/// and the tables its songs point into. It scans the disk (`LibraryBuilder+Scanning`) and
/// flattens the tree into an immutable `LibraryContent` for each new snapshot.
///
/// The tables are shared with the snapshots (copy-on-write): after a snapshot is published,
/// the first new string or tag copies them once, and the old copy goes with the old snapshot.
/// Re-read songs leave their old tags behind; `compactIfNeeded` rebuilds the tables when
/// what is unused has grown as large as what is used, so churn cannot grow memory forever.
struct LibraryBuilder {
    /// The music folders, absolute.
    let folders: [FilePath]
    var strings = StringTable()
    var tags: [UInt32] = []
    var formats: [AudioFormatFacts] = []
    private var formatIndex: [AudioFormatFacts: UInt16] = [:]
    /// With one folder, that folder; with several, a root whose children are the folders.
    var root: FolderNode
    /// Strings in the table after the last compaction (or load).
    private var compactedStringCount = 0

    /// Caps on what one song may bring in: more than any real tag, small enough to bound memory.
    static let maximumValueBytes = 16 * 1024
    static let maximumTagsPerSong = 255

    init(folders: [FilePath]) {
        self.folders = folders
        root = FolderNode(rawName: folders.count == 1 ? folders[0].bytes : [])
        if folders.count > 1 {
            root.children = folders.map { FolderNode(rawName: $0.bytes) }
        }
    }

    /// The songs in the tree.
    var songCount: Int { root.songCount }

    // MARK: Songs

    /// A song record for `track`, read from the file `rawName` with `status`: its tags interned.
    mutating func record(for track: Track, rawName: [UInt8], modified: Int64, size: UInt64) -> SongRecord {
        let start = UInt32(clamping: tags.count)
        var count = 0
        for (index, kind) in PackedTag.kinds.enumerated() {
            for value in track.values(of: kind) where !value.isEmpty && count < Self.maximumTagsPerSong {
                let id = strings.intern(Self.capped(value))
                guard id <= PackedTag.maximumValue else { continue }
                tags.append(PackedTag.pack(UInt8(index), id))
                count += 1
            }
        }
        let milliseconds = track.length.map { UInt32(clamping: max(0, $0) / 1000) }
        var format: UInt16 = 0
        if let facts = track.audioFormat { format = formatID(facts) }
        return SongRecord(name: 0, rawName: strings.intern(rawName), tagStart: start, tagCount: UInt16(count),
                          format: format,
                          durationMilliseconds: min(milliseconds ?? SongRecord.unknownDuration, SongRecord.unknownDuration),
                          modified: modified, size: size)
    }

    /// At most `maximumValueBytes` of UTF-8, cut at a character.
    static func capped(_ value: String) -> String {
        guard value.utf8.count > maximumValueBytes else { return value }
        var end = value.utf8.index(value.utf8.startIndex, offsetBy: maximumValueBytes)
        while end > value.startIndex, !value.unicodeScalars.indices.contains(end) { end = value.utf8.index(before: end) }
        return String(value[..<end])
    }

    mutating func internFormat(_ format: AudioFormatFacts) -> UInt16 { formatID(format) }

    private mutating func formatID(_ format: AudioFormatFacts) -> UInt16 {
        if let id = formatIndex[format] { return id }
        guard formats.count < Int(UInt16.max) - 1 else { return 0 }
        formats.append(format)
        let id = UInt16(formats.count)
        formatIndex[format] = id
        return id
    }

    // MARK: Snapshots

    /// The tree as flat arrays, every folder sorted and named first.
    mutating func flatten() -> LibraryContent {
        var content = LibraryContent(folders: folders)
        content.directories = []
        content.songs.reserveCapacity(songCount)
        visit(root, parent: DirectoryRecord.none, into: &content)
        content.strings = strings
        content.tags = tags
        content.formats = formats
        return content
    }

    private mutating func visit(_ node: FolderNode, parent: UInt32, into content: inout LibraryContent) {
        order(node)
        let index = UInt32(content.directories.count)
        let rawName = parent == DirectoryRecord.none ? 0 : strings.intern(node.rawName)
        content.directories.append(DirectoryRecord(
            name: parent == DirectoryRecord.none ? 0 : node.name, rawName: rawName, parent: parent, end: 0,
            songStart: UInt32(content.songs.count), songCount: UInt32(node.songs.count), songEnd: 0,
            playlistStart: UInt32(content.playlists.count), playlistCount: UInt32(node.playlists.count),
            modified: node.modified))
        for var song in node.songs {
            song.directory = index
            content.songs.append(song)
        }
        content.playlists += node.playlists
        for child in node.children { visit(child, parent: index, into: &content) }
        content.directories[Int(index)].end = UInt32(content.directories.count)
        content.directories[Int(index)].songEnd = UInt32(content.songs.count)
    }

    /// Names a changed folder's entries (`EntryNames`) and sorts them as mpd does: songs by
    /// album, disc, track, file name; subfolders and playlists by name (`Collation`).
    private mutating func order(_ node: FolderNode) {
        guard !node.isOrdered else { return }
        node.isOrdered = true
        let isTopLevel = node === root && folders.count > 1
        let childRaws = node.children.map { isTopLevel ? FilePath(bytes: $0.rawName)?.lastComponent.bytes ?? $0.rawName : $0.rawName }
        let raws = childRaws + node.songs.map { strings.byteArray($0.rawName) } + node.playlists.map { strings.byteArray($0.rawName) }
        let files = Array(repeating: false, count: node.children.count) + Array(repeating: true, count: raws.count - node.children.count)
        let names = EntryNames.unique(raws, files: files, keepOrder: isTopLevel)
        var position = 0
        for child in node.children {
            child.name = strings.intern(names[position])
            position += 1
        }
        for index in node.songs.indices {
            node.songs[index].name = strings.intern(names[position])
            position += 1
        }
        for index in node.playlists.indices {
            node.playlists[index].name = strings.intern(names[position])
            position += 1
        }
        let table = strings
        let childKeys = node.children.map { (Collation.key(table.string($0.name)), $0.rawName) }
        node.children = zip(node.children, childKeys).sorted { a, b in
            a.1.0 != b.1.0 ? a.1.0.lexicographicallyPrecedes(b.1.0) : a.1.1.lexicographicallyPrecedes(b.1.1)
        }.map(\.0)
        node.playlists = node.playlists.map { ($0, Collation.key(table.string($0.name)), table.byteArray($0.rawName)) }
            .sorted { $0.1 != $1.1 ? $0.1.lexicographicallyPrecedes($1.1) : $0.2.lexicographicallyPrecedes($1.2) }
            .map(\.0)
        let (album, disc, track) = (PackedTag.index(.album), PackedTag.index(.disc), PackedTag.index(.track))
        let content = LibraryContent(strings: table, tags: tags)
        let keyed = node.songs.map { song in
            SongOrderKey(album: content.firstValue(album, of: song).map { Collation.key(table.string($0)) },
                         disc: content.firstValue(disc, of: song).flatMap { TagNumber.leadingInteger(table.string($0)) } ?? 0,
                         track: content.firstValue(track, of: song).flatMap { TagNumber.leadingInteger(table.string($0)) } ?? 0,
                         name: Collation.key(table.string(song.name)), raw: table.byteArray(song.rawName), song: song)
        }
        node.songs = keyed.sorted(by: SongOrderKey.precedes).map(\.song)
    }

    // MARK: Compaction

    /// Rebuilds the string table and the tag array from what the tree uses, when unused
    /// entries have grown past the used ones (songs re-read, values gone).
    mutating func compactIfNeeded() {
        let usedTags = root.totalTagCount
        guard tags.count > 2 * usedTags + 4096 || strings.count > 2 * compactedStringCount + 10_000 else { return }
        var fresh = StringTable()
        var freshTags: [UInt32] = []
        freshTags.reserveCapacity(usedTags)
        func remap(_ node: FolderNode) {
            node.isOrdered = false
            for index in node.songs.indices {
                let song = node.songs[index]
                let start = UInt32(freshTags.count)
                for tag in tags[Int(song.tagStart)..<Int(song.tagStart) + Int(song.tagCount)] {
                    let value = strings.withBytes(of: PackedTag.value(tag)) { fresh.intern($0) }
                    freshTags.append(PackedTag.pack(PackedTag.kind(tag), value))
                }
                node.songs[index].tagStart = start
                node.songs[index].rawName = strings.withBytes(of: song.rawName) { fresh.intern($0) }
            }
            for index in node.playlists.indices {
                node.playlists[index].rawName = strings.withBytes(of: node.playlists[index].rawName) { fresh.intern($0) }
            }
            for child in node.children { remap(child) }
        }
        remap(root)
        strings = fresh
        tags = freshTags
        compactedStringCount = strings.count
    }

    /// After a load or a full scan: the table as it is now is the baseline for compaction.
    mutating func markCompacted() {
        compactedStringCount = strings.count
    }
}

/// What mpd sorts a folder's songs by (SongSort.cxx).
private struct SongOrderKey {
    var album: [UInt32]?
    var disc: Int
    var track: Int
    var name: [UInt32]
    var raw: [UInt8]
    var song: SongRecord

    static func precedes(_ a: SongOrderKey, _ b: SongOrderKey) -> Bool {
        switch (a.album, b.album) {
        case (nil, .some): return true
        case (.some, nil): return false
        case (.some(let x), .some(let y)) where x != y: return x.lexicographicallyPrecedes(y)
        default: break
        }
        for (x, y) in [(a.disc, b.disc), (a.track, b.track)] {
            // compare_number_string: zero and negative numbers are equal, and first.
            switch (x <= 0, y <= 0) {
            case (true, true): continue
            case (true, false): return true
            case (false, true): return false
            default: if x != y { return x < y }
            }
        }
        if a.name != b.name { return a.name.lexicographicallyPrecedes(b.name) }
        return a.raw.lexicographicallyPrecedes(b.raw)
    }
}

extension FolderNode {
    var totalTagCount: Int { songs.reduce(0) { $0 + Int($1.tagCount) } + children.reduce(0) { $0 + $1.totalTagCount } }
}

extension LibraryContent {
    /// A content holding only tables (to read songs' tags while sorting).
    init(strings: StringTable, tags: [UInt32]) {
        self.init(folders: [])
        self.strings = strings
        self.tags = tags
    }
}

import Library
import PlayerCore

/// The library cache file's bytes: a header (magic, version, body length, FNV-1a checksum of
/// the body — the tag index's scheme, `TagIndexCoding`), then the snapshot's arrays as they
/// are in memory: strings, formats, packed tags, folders, songs, playlists.
///
/// The file is outside input: every count is checked against the bytes left before anything
/// is reserved, every id and range against what it points into, and the folder tree's shape
/// (depth-first ranges) is verified, so a damaged or forged file is refused whole — never a
/// crash, never an allocation larger than the file.
enum LibraryCacheCoding {
    static let magic = Array("AUBADE-LIBRARY1\n".utf8)
    static let version: UInt32 = 1
    static let headerLength = 16 + 4 + 4 + 8 + 8
    /// The largest cache file read: about 2 KB a song at the default limit's million songs.
    static let maximumBytes = 2 << 30
    static let maximumString = 64 * 1024

    typealias Corrupt = TagIndexCoding.Corrupt

    static func encode(_ content: LibraryContent, updated: Int64) -> [UInt8] {
        var w = ByteWriter()
        w.u64(UInt64(bitPattern: updated))
        w.u32(UInt32(content.folders.count))
        for folder in content.folders { w.data(folder.bytes) }
        w.u32(UInt32(content.strings.count))
        for id in 0..<content.strings.count { w.data(content.strings.byteArray(UInt32(id))) }
        w.u32(UInt32(content.formats.count))
        for format in content.formats {
            w.u32(UInt32(clamping: format.sampleRate))
            w.u32(UInt32(clamping: format.bitsPerSample ?? 0))
            w.u32(UInt32(clamping: format.channels))
        }
        w.u32(UInt32(content.tags.count))
        for tag in content.tags { w.u32(tag) }
        w.u32(UInt32(content.directories.count))
        for d in content.directories {
            for value in [d.name, d.rawName, d.parent, d.end, d.songStart, d.songCount, d.songEnd, d.playlistStart, d.playlistCount] {
                w.u32(value)
            }
            w.u64(UInt64(bitPattern: d.modified))
        }
        w.u32(UInt32(content.songs.count))
        for s in content.songs {
            for value in [s.name, s.rawName, s.directory, s.tagStart] { w.u32(value) }
            w.u16(s.tagCount)
            w.u16(s.format)
            w.u32(s.durationMilliseconds)
            w.u64(UInt64(bitPattern: s.modified))
            w.u64(s.size)
        }
        w.u32(UInt32(content.playlists.count))
        for p in content.playlists {
            w.u32(p.name)
            w.u32(p.rawName)
            w.u64(UInt64(bitPattern: p.modified))
            w.u64(p.size)
        }
        var file = ByteWriter()
        file.bytes = magic
        file.u32(version)
        file.u32(0)
        file.u64(UInt64(w.bytes.count))
        file.u64(TagIndexCoding.checksum(w.bytes[...]))
        return file.bytes + w.bytes
    }

    static func decode(_ bytes: [UInt8]) throws(Corrupt) -> (content: LibraryContent, updated: Int64) {
        guard bytes.count >= headerLength, bytes.starts(with: magic) else { throw Corrupt(reason: "not a library cache") }
        var header = IndexReader(bytes[magic.count..<headerLength])
        let version = try header.u32()
        _ = try header.u32()
        let length = try header.u64(), sum = try header.u64()
        guard version == Self.version else { throw Corrupt(reason: "version \(version)") }
        guard length == UInt64(bytes.count - headerLength) else { throw Corrupt(reason: "truncated or padded") }
        let body = bytes[headerLength...]
        guard TagIndexCoding.checksum(body) == sum else { throw Corrupt(reason: "checksum mismatch") }
        var r = IndexReader(body)
        let left = body.count
        /// A count of records of `size` bytes each, no more than the bytes left could hold.
        func count(_ size: Int) throws(Corrupt) -> Int {
            let n = Int(try r.u32())
            guard n <= left / max(size, 1) else { throw Corrupt(reason: "count \(n) larger than the file") }
            return n
        }
        let updated = Int64(bitPattern: try r.u64())
        var content = LibraryContent(folders: [])
        for _ in 0..<(try count(4)) {
            guard let folder = FilePath(bytes: try r.data(limit: 64 * 1024)), folder.isAbsolute else { throw Corrupt(reason: "bad folder") }
            content.folders.append(folder)
        }
        let stringCount = try count(4)
        guard stringCount >= 1 else { throw Corrupt(reason: "no strings") }
        for index in 0..<stringCount {
            let value = try r.data(limit: maximumString)
            guard content.strings.intern(value) == UInt32(index) else { throw Corrupt(reason: "duplicate string") }
        }
        for _ in 0..<(try count(12)) {
            let rate = Int(try r.u32()), bits = Int(try r.u32()), channels = Int(try r.u32())
            guard (1...10_000_000).contains(rate), (0...64).contains(bits), (1...255).contains(channels) else {
                throw Corrupt(reason: "bad audio format")
            }
            content.formats.append(AudioFormatFacts(sampleRate: rate, bitsPerSample: bits == 0 ? nil : bits, channels: channels))
        }
        let tagCount = try count(4)
        content.tags.reserveCapacity(tagCount)
        for _ in 0..<tagCount {
            let tag = try r.u32()
            guard Int(PackedTag.kind(tag)) < PackedTag.kinds.count, Int(PackedTag.value(tag)) < stringCount else {
                throw Corrupt(reason: "bad tag")
            }
            content.tags.append(tag)
        }
        let directoryCount = try count(44)
        content.directories = []
        content.directories.reserveCapacity(directoryCount)
        for _ in 0..<directoryCount {
            var v: [UInt32] = []
            for _ in 0..<9 { v.append(try r.u32()) }
            content.directories.append(DirectoryRecord(name: v[0], rawName: v[1], parent: v[2], end: v[3], songStart: v[4],
                                                       songCount: v[5], songEnd: v[6], playlistStart: v[7], playlistCount: v[8],
                                                       modified: Int64(bitPattern: try r.u64())))
        }
        let songCount = try count(40)
        content.songs.reserveCapacity(songCount)
        for _ in 0..<songCount {
            let name = try r.u32(), rawName = try r.u32(), directory = try r.u32(), tagStart = try r.u32()
            let tags = try r.u16(), format = try r.u16(), duration = try r.u32()
            let modified = Int64(bitPattern: try r.u64()), size = try r.u64()
            content.songs.append(SongRecord(name: name, rawName: rawName, directory: directory, tagStart: tagStart, tagCount: tags,
                                            format: format, durationMilliseconds: duration, modified: modified, size: size))
        }
        for _ in 0..<(try count(24)) {
            content.playlists.append(PlaylistRecord(name: try r.u32(), rawName: try r.u32(),
                                                    modified: Int64(bitPattern: try r.u64()), size: try r.u64()))
        }
        guard r.isAtEnd else { throw Corrupt(reason: "bytes after the end") }
        try verify(content)
        return (content, updated)
    }

    /// Every id in range, and the folders' depth-first shape: each folder's songs and
    /// playlists follow the previous folder's, its subtree ends inside its parent's.
    static func verify(_ content: LibraryContent) throws(Corrupt) {
        let strings = UInt32(content.strings.count)
        let directories = content.directories
        let n = directories.count
        guard n >= 1, directories[0].parent == DirectoryRecord.none, Int(directories[0].end) == n else {
            throw Corrupt(reason: "bad root folder")
        }
        var songCursor = 0, playlistCursor = 0
        var depths = [Int](repeating: 0, count: n)
        for (index, d) in directories.enumerated() {
            guard d.name < strings, d.rawName < strings, Int(d.end) > index, Int(d.end) <= n,
                  Int(d.songStart) == songCursor, Int(d.playlistStart) == playlistCursor else { throw Corrupt(reason: "bad folder") }
            if index > 0 {
                guard Int(d.parent) < index, directories[Int(d.parent)].end >= d.end else { throw Corrupt(reason: "bad folder tree") }
                depths[index] = depths[Int(d.parent)] + 1
                guard depths[index] <= ScanReport.depthLimit else { throw Corrupt(reason: "folders nested too deep") }
            }
            var child = index + 1
            while child < Int(d.end) {
                guard Int(directories[child].parent) == index else { throw Corrupt(reason: "bad folder tree") }
                child = Int(directories[child].end)
            }
            guard child == Int(d.end) else { throw Corrupt(reason: "bad folder tree") }
            guard songCursor + Int(d.songCount) <= content.songs.count,
                  playlistCursor + Int(d.playlistCount) <= content.playlists.count else { throw Corrupt(reason: "bad folder") }
            for song in content.songs[songCursor..<songCursor + Int(d.songCount)] {
                guard song.directory == UInt32(index), song.name < strings, song.rawName < strings,
                      Int(song.tagStart) + Int(song.tagCount) <= content.tags.count, Int(song.format) <= content.formats.count
                else { throw Corrupt(reason: "bad song") }
            }
            for playlist in content.playlists[playlistCursor..<playlistCursor + Int(d.playlistCount)] {
                guard playlist.name < strings, playlist.rawName < strings else { throw Corrupt(reason: "bad playlist") }
            }
            songCursor += Int(d.songCount)
            playlistCursor += Int(d.playlistCount)
        }
        guard songCursor == content.songs.count, playlistCursor == content.playlists.count else { throw Corrupt(reason: "bad counts") }
        for (index, d) in directories.enumerated() {
            let expectedEnd = Int(d.end) == n ? content.songs.count : Int(directories[Int(d.end)].songStart)
            guard Int(d.songEnd) == expectedEnd else { throw Corrupt(reason: "bad song range \(index)") }
        }
    }
}

extension LibraryBuilder {
    /// The tree of a cached snapshot (`LibraryCacheCoding.verify`ed), to check against the disk.
    init(loading content: LibraryContent) {
        self.init(folders: content.folders)
        strings = content.strings
        tags = content.tags
        for format in content.formats { _ = internFormat(format) }
        var nodes: [FolderNode] = []
        for (index, d) in content.directories.enumerated() {
            let node = index == 0 ? root : FolderNode(rawName: content.strings.byteArray(d.rawName))
            if index == 0 { node.children = [] }
            node.name = d.name
            node.modified = d.modified
            node.songs = Array(content.songs[Int(d.songStart)..<Int(d.songStart + d.songCount)])
            node.playlists = Array(content.playlists[Int(d.playlistStart)..<Int(d.playlistStart + d.playlistCount)])
            node.isOrdered = true
            if index > 0 { nodes[Int(d.parent)].children.append(node) }
            nodes.append(node)
        }
        if folders.count > 1 {
            // The top-level folders in the configuration's order (the builder pairs them).
            let found = root.children
            root.children = folders.map { folder in found.first { $0.rawName == folder.bytes } ?? FolderNode(rawName: folder.bytes) }
            root.isOrdered = false
        }
        markCompacted()
    }
}

public import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension LibrarySnapshot {
    /// The folder at `uri` ("" or "/" is the root); nil when there is none.
    public func directory(uri: String) -> LibraryDirectory? {
        guard let index = directoryIndex(uri: uri) else { return nil }
        return makeDirectory(index)
    }

    /// The song at `uri`; nil when there is none.
    public func song(uri: String) -> LibrarySong? {
        guard let index = songIndex(uri: uri) else { return nil }
        let song = content.songs[index]
        return content.librarySong(song, directoryURI: content.uri(ofDirectory: song.directory),
                                   directoryPath: content.realPath(ofDirectory: song.directory))
    }

    func makeDirectory(_ index: UInt32) -> LibraryDirectory {
        LibraryDirectory(uri: content.uri(ofDirectory: index),
                         lastModified: SongRecord.seconds(content.directories[Int(index)].modified),
                         index: index, generation: generation)
    }

    /// The index of `directory` in this snapshot (it may come from another one).
    func index(of directory: LibraryDirectory) -> UInt32? {
        if directory.generation == generation, Int(directory.index) < content.directories.count { return directory.index }
        return directoryIndex(uri: directory.uri)
    }

    static func components(of uri: String) -> [Substring]? {
        if uri.isEmpty || uri == "/" { return [] }
        let parts = uri.split(separator: "/", omittingEmptySubsequences: false)
        // "A/" is "A" (clients add a slash); any other empty part, "." or ".." is no URI of ours.
        let trimmed = parts.last == "" ? parts.dropLast() : parts[...]
        guard !trimmed.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { return nil }
        return Array(trimmed)
    }

    func directoryIndex(uri: String) -> UInt32? {
        guard let parts = Self.components(of: uri) else { return nil }
        var current: UInt32 = 0
        for part in parts {
            guard let child = childIndex(named: part, in: current) else { return nil }
            current = child
        }
        return current
    }

    func childIndex(named name: Substring, in directory: UInt32) -> UInt32? {
        guard let id = content.strings.id(of: name.utf8) else { return nil }
        var child = directory + 1
        let end = content.directories[Int(directory)].end
        while child < end {
            if content.directories[Int(child)].name == id { return child }
            child = content.directories[Int(child)].end
        }
        return nil
    }

    func songIndex(uri: String) -> Int? {
        guard let parts = Self.components(of: uri), let name = parts.last else { return nil }
        var current: UInt32 = 0
        for part in parts.dropLast() {
            guard let child = childIndex(named: part, in: current) else { return nil }
            current = child
        }
        return songIndex(named: name, in: current)
    }

    func songIndex(named name: Substring, in directory: UInt32) -> Int? {
        guard let id = content.strings.id(of: name.utf8) else { return nil }
        let record = content.directories[Int(directory)]
        let range = Int(record.songStart)..<Int(record.songStart + record.songCount)
        return range.first { content.songs[$0].name == id }
    }

    /// The real file of any URI in the library: a song, a playlist file, or any other file in
    /// or below a library folder (`cover.jpg` beside a song, for `albumart`). Nil for a URI
    /// with `..`, `.` or an empty part, a hidden name, or one outside the library. A name not
    /// in the database maps to its UTF-8 bytes, or to its Windows-1252 bytes when only that
    /// file exists (a Latin-1 `caf\xe9.jpg` shown as "café.jpg").
    public func filePath(forURI uri: String) -> FilePath? {
        guard let parts = Self.components(of: uri) else { return nil }
        var current: UInt32 = 0
        var index = 0
        while index < parts.count, let child = childIndex(named: parts[index], in: current) {
            current = child
            index += 1
        }
        guard var path = content.realPath(ofDirectory: current) else { return nil }
        let rest = parts[index...]
        if rest.isEmpty { return current == 0 && content.folders.count != 1 ? nil : path }
        if rest.count == 1, let name = rest.first {
            if let song = songIndex(named: name, in: current) {
                return FilePath(bytes: content.strings.byteArray(content.songs[song].rawName)).map(path.appending)
            }
            let record = content.directories[Int(current)]
            if let id = content.strings.id(of: name.utf8),
               let playlist = content.playlists[Int(record.playlistStart)..<Int(record.playlistStart + record.playlistCount)]
                .first(where: { $0.name == id }) {
                return FilePath(bytes: content.strings.byteArray(playlist.rawName)).map(path.appending)
            }
        }
        // Not in the database (no music in it): the names as written, below a known folder.
        guard current != 0 || content.folders.count == 1 else { return nil }
        for part in rest {
            guard !part.hasPrefix("."), let component = Self.existingName(part, in: path) else { return nil }
            path = path.appending(component)
        }
        return path
    }

    /// `name`'s UTF-8 bytes, or its Windows-1252 bytes if only those name a file in `folder`.
    static func existingName(_ name: Substring, in folder: FilePath) -> FilePath? {
        guard let utf8 = FilePath(String(name)) else { return nil }
        if exists(folder.appending(utf8)) { return utf8 }
        if let latin = Windows1252.encode(name), let legacy = FilePath(bytes: latin), exists(folder.appending(legacy)) {
            return legacy
        }
        return utf8
    }

    private static func exists(_ path: FilePath) -> Bool {
        var info = stat()
        return path.withCString { lstat($0, &info) } == 0
    }

    /// The URI of a real path under a music folder (a song, a folder, any file there); nil
    /// outside them.
    public func uri(of path: FilePath) -> String? {
        let normalized = path.lexicallyNormalized
        guard normalized.isAbsolute, !normalized.bytes.isEmpty else { return nil }
        for folder in content.folders {
            let base = folder.lexicallyNormalized.components
            let parts = normalized.components
            guard parts.count >= base.count, Array(parts.prefix(base.count)) == base else { continue }
            var current: UInt32 = 0
            var names: [String] = []
            var rest = parts.dropFirst(base.count)
            if content.folders.count > 1 {
                // The music folder's own top-level folder.
                guard let top = content.children(of: 0).first(where: {
                    content.strings.byteArray(content.directories[Int($0)].rawName) == folder.bytes
                }) else { continue }
                current = top
                names.append(content.strings.string(content.directories[Int(top)].name))
            }
            while let part = rest.first, let child = rawChild(part.bytes, in: current) {
                current = child
                names.append(content.strings.string(content.directories[Int(child)].name))
                rest = rest.dropFirst()
            }
            if rest.count == 1, let last = rest.first, let rawID = content.strings.id(of: last.bytes) {
                let record = content.directories[Int(current)]
                let songs = Int(record.songStart)..<Int(record.songStart + record.songCount)
                if let song = songs.first(where: { content.songs[$0].rawName == rawID }) {
                    return (names + [content.strings.string(content.songs[song].name)]).joined(separator: "/")
                }
                let playlists = Int(record.playlistStart)..<Int(record.playlistStart + record.playlistCount)
                if let playlist = playlists.first(where: { content.playlists[$0].rawName == rawID }) {
                    return (names + [content.strings.string(content.playlists[playlist].name)]).joined(separator: "/")
                }
            }
            return (names + rest.map(\.displayString)).joined(separator: "/")
        }
        return nil
    }

    private func rawChild(_ name: [UInt8], in directory: UInt32) -> UInt32? {
        guard let id = content.strings.id(of: name) else { return nil }
        return content.children(of: directory).first { content.directories[Int($0)].rawName == id }
    }
}

/// Windows-1252, the reading of names that are not UTF-8 (`FilePath.displayString`), backwards.
enum Windows1252 {
    /// The bytes that read as `text`; nil if a character has no Windows-1252 byte.
    static func encode(_ text: some StringProtocol) -> [UInt8]? {
        var bytes: [UInt8] = []
        for scalar in text.unicodeScalars {
            if scalar.value < 0x80 || (0xA0...0xFF).contains(scalar.value) {
                bytes.append(UInt8(scalar.value))
            } else if let index = high.firstIndex(of: scalar.value) {
                bytes.append(0x80 + UInt8(index))
            } else {
                return nil
            }
        }
        return bytes
    }

    private static let high: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}

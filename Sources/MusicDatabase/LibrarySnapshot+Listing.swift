import PlayerCore

extension LibrarySnapshot {
    /// `lsinfo`: a folder's own songs in mpd's order (album, disc, track, file name), then its
    /// playlist files, then its subfolders (by name, ICU's order: `Collation`).
    public func contents(of directory: LibraryDirectory) -> [LibraryEntry] {
        guard let index = index(of: directory) else { return [] }
        var entries: [LibraryEntry] = []
        var iterator = LibraryWalk.Iterator(snapshot: self, start: index, recursive: false)
        while let entry = iterator.next() { entries.append(entry) }
        return entries
    }

    /// `listall`/`listallinfo`: the folder itself (not the root), its songs, its playlists, then
    /// each subfolder, followed by everything in it, depth first — produced as it is read, so
    /// a client reading 100,000 songs slowly costs no more memory than one entry at a time.
    public func walk(from directory: LibraryDirectory) -> LibraryWalk {
        LibraryWalk(snapshot: self, start: index(of: directory))
    }
}

/// The lazy sequence of `LibrarySnapshot.walk(from:)`.
public struct LibraryWalk: Sequence, Sendable {
    let snapshot: LibrarySnapshot
    let start: UInt32?

    public func makeIterator() -> Iterator {
        Iterator(snapshot: snapshot, start: start, recursive: true)
    }

    /// One walk in progress: a stack of folders and a cursor in the current one, so the walk
    /// holds no list of what it will give.
    public struct Iterator: IteratorProtocol {
        private let snapshot: LibrarySnapshot
        private let recursive: Bool
        /// Where the walk is: a folder, and how far into it (its line, songs, playlists,
        /// subfolders). Depth first, with the subfolders of each level still to visit.
        private var stack: [(directory: UInt32, nextChild: UInt32)] = []
        private var pending: [LibraryEntry] = []
        private var song: Int = 0
        private var songEnd: Int = 0
        private var playlist: Int = 0
        private var playlistEnd: Int = 0
        private var directoryURI = ""
        private var directoryPath: FilePath?

        init(snapshot: LibrarySnapshot, start: UInt32?, recursive: Bool) {
            self.snapshot = snapshot
            self.recursive = recursive
            guard let start else { return }
            if recursive && start != 0 {
                pending.append(.directory(uri: snapshot.content.uri(ofDirectory: start),
                                          lastModified: SongRecord.seconds(snapshot.content.directories[Int(start)].modified)))
            }
            enter(start)
        }

        private mutating func enter(_ index: UInt32) {
            let record = snapshot.content.directories[Int(index)]
            stack.append((index, index + 1))
            song = Int(record.songStart)
            songEnd = Int(record.songStart + record.songCount)
            playlist = Int(record.playlistStart)
            playlistEnd = Int(record.playlistStart + record.playlistCount)
            directoryURI = snapshot.content.uri(ofDirectory: index)
            directoryPath = snapshot.content.realPath(ofDirectory: index)
        }

        public mutating func next() -> LibraryEntry? {
            let content = snapshot.content
            while true {
                if !pending.isEmpty { return pending.removeFirst() }
                if song < songEnd {
                    defer { song += 1 }
                    return .song(content.librarySong(content.songs[song], directoryURI: directoryURI, directoryPath: directoryPath))
                }
                if playlist < playlistEnd {
                    defer { playlist += 1 }
                    let record = content.playlists[playlist]
                    let name = content.strings.string(record.name)
                    return .playlist(uri: directoryURI.isEmpty ? name : directoryURI + "/" + name,
                                     lastModified: SongRecord.seconds(record.modified))
                }
                guard let top = stack.last else { return nil }
                let end = content.directories[Int(top.directory)].end
                guard top.nextChild < end else {
                    stack.removeLast()
                    if stack.isEmpty { return nil }
                    continue
                }
                let child = top.nextChild
                stack[stack.count - 1].nextChild = content.directories[Int(child)].end
                let entry = LibraryEntry.directory(uri: content.uri(ofDirectory: child),
                                                   lastModified: SongRecord.seconds(content.directories[Int(child)].modified))
                if recursive {
                    enter(child)
                } else {
                    // lsinfo: only this folder's own subfolders; nothing is entered.
                }
                return entry
            }
        }
    }
}

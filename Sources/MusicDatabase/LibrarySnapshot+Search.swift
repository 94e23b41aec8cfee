import PlayerCore

extension LibrarySnapshot {
    /// `find`/`search` (and `findadd`, `searchadd`…): the songs that pass `filter`, in the
    /// library's order (mpd's walk), or sorted by `sort` (stable), then cut to `window`.
    ///
    /// A filter with a `base` that names nothing matches nothing here; mpd answers such a
    /// query with `ACK [50@0] No such directory`, which a front-end learns from
    /// `directory(uri:)` and `song(uri:)`. A filter with a refused regular expression finds
    /// nothing: the protocol checks `SongFilter.validate()` first, to answer `ACK [2@0]`.
    public func songs(matching filter: SongFilter, sort: SongOrder? = nil, window: Range<Int>? = nil) -> [LibrarySong] {
        guard let compiled = try? SnapshotFilter(filter, content: content) else { return [] }
        guard let range = songRange(for: filter) else { return [] }
        var found: [Int] = []
        // Without sorting, the walk can stop once the window is full.
        let limit = sort == nil ? window?.upperBound : nil
        for index in range where compiled.matches(index) {
            found.append(index)
            if let limit, found.count >= limit { break }
        }
        if let sort { found = sorted(found, by: sort) }
        if let window {
            let lower = min(max(window.lowerBound, 0), found.count)
            let upper = min(max(window.upperBound, lower), found.count)
            found = Array(found[lower..<upper])
        }
        return materialize(found)
    }

    /// The song indices a filter's `base` allows (all songs without one); nil when the base
    /// names nothing.
    func songRange(for filter: SongFilter?) -> Range<Int>? {
        guard let filter, let base = SnapshotFilter.baseURI(of: filter) else { return 0..<content.songs.count }
        if let directory = directoryIndex(uri: base) {
            let record = content.directories[Int(directory)]
            return Int(record.songStart)..<Int(record.songEnd)
        }
        if let song = songIndex(uri: base) { return song..<song + 1 }
        return nil
    }

    /// LibrarySongs of the given indices (folder URIs and paths worked out once per folder).
    func materialize(_ indices: [Int]) -> [LibrarySong] {
        var result: [LibrarySong] = []
        result.reserveCapacity(indices.count)
        var folder: (index: UInt32, uri: String, path: FilePath?)?
        for index in indices {
            let song = content.songs[index]
            if folder?.index != song.directory {
                folder = (song.directory, content.uri(ofDirectory: song.directory), content.realPath(ofDirectory: song.directory))
            }
            result.append(content.librarySong(song, directoryURI: folder!.uri, directoryPath: folder!.path))
        }
        return result
    }

    /// mpd's DatabaseVisitorHelper::Commit: a stable sort on the tag's sort value (bytes;
    /// Track and Disc by `strtol`), descending by swapping the operands, or by modification
    /// time.
    private func sorted(_ indices: [Int], by order: SongOrder) -> [Int] {
        let songs = content.songs
        switch order.key {
        case .lastModified:
            let keyed = indices.map { (index: $0, time: songs[$0].modified / 1_000_000_000) }
            return stableSorted(keyed) { order.descending ? $0.time > $1.time : $0.time < $1.time }.map(\.index)
        case .tag(let kind):
            let chain = kind.sortChain.map(PackedTag.index)
            let values: [UInt32] = indices.map { index in
                chain.lazy.compactMap { self.content.firstValue($0, of: songs[index]) }.first ?? 0
            }
            let keyed = Array(zip(indices, values))
            if kind == .track || kind == .disc {
                let numbers = values.map { TagNumber.leadingInteger(content.strings.string($0)) ?? 0 }
                let numbered = zip(keyed, numbers).map { (index: $0.0, number: $1) }
                return stableSorted(numbered) { order.descending ? $1.number < $0.number : $0.number < $1.number }.map(\.index)
            }
            let strings = content.strings
            return stableSorted(keyed) { order.descending ? strings.bytesPrecede($1.1, $0.1) : strings.bytesPrecede($0.1, $1.1) }
                .map(\.0)
        }
    }

    private func stableSorted<T>(_ items: [T], by less: (T, T) -> Bool) -> [T] {
        // Swift's sort is not guaranteed stable: the position breaks ties.
        items.enumerated().sorted { a, b in
            if less(a.element, b.element) { return true }
            if less(b.element, a.element) { return false }
            return a.offset < b.offset
        }.map(\.element)
    }
}

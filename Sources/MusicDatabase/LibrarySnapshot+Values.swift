public import PlayerCore

extension LibrarySnapshot {
    /// `list TAG [filter] [group G]…`: the distinct rows of (group values…, value) over the
    /// songs that pass `filter`, as mpd builds them (a nested map): every combination of each
    /// kind's values — with mpd's fallbacks (AlbumArtist → Artist…), or "" for a song with
    /// none — deduplicated, sorted by bytes level by level (`strcmp`, not collation).
    ///
    /// `groupedBy` lists the outer groups first. mpd reads `group` arguments from the end:
    /// `list date group album group albumartist` is `values(of: .date, groupedBy:
    /// [.albumArtist, .album])`. (mpd 0.23's `list` takes no `window`: it answers
    /// "Unknown filter type".)
    public func values(of kind: TagKind, matching filter: SongFilter? = nil, groupedBy: [TagKind] = []) throws(SongFilterError)
        -> [[String]] {
        let kinds = groupedBy + [kind]
        let plans = kinds.map { (PackedTag.index($0), $0.fallbacks.map(PackedTag.index)) }
        let compiled = try filter.map { (f: SongFilter) throws(SongFilterError) in try SnapshotFilter(f, content: content) }
        guard let range = songRange(for: filter) else { return [] }
        var rows = Set<[UInt32]>()
        var single = Set<UInt32>()
        var columns: [[UInt32]] = Array(repeating: [], count: kinds.count)
        for index in range where compiled?.matches(index) ?? true {
            let song = content.songs[index]
            for (column, plan) in plans.enumerated() {
                columns[column] = valuesWithFallback(plan.0, plan.1, song)
            }
            if kinds.count == 1 {
                single.formUnion(columns[0])
            } else {
                addCombinations(columns, into: &rows)
            }
        }
        let strings = content.strings
        if kinds.count == 1 {
            return single.sorted(by: strings.bytesPrecede).map { [strings.string($0)] }
        }
        return rows.sorted { a, b in
            for (x, y) in zip(a, b) where x != y { return strings.bytesPrecede(x, y) }
            return false
        }.map { $0.map(strings.string) }
    }

    /// `count [filter] [group TAG]`: the songs that pass and their playing time, in all or per
    /// value of `groupedBy` (with mpd's fallbacks; "" for songs with none), by bytes.
    public func counts(matching filter: SongFilter? = nil, groupedBy: TagKind? = nil) throws(SongFilterError) -> [LibraryCount] {
        let compiled = try filter.map { (f: SongFilter) throws(SongFilterError) in try SnapshotFilter(f, content: content) }
        guard let range = songRange(for: filter) else {
            return groupedBy == nil ? [LibraryCount(group: nil, songs: 0, playtime: 0)] : []
        }
        var totals: [UInt32: (songs: Int, milliseconds: UInt64)] = [:]
        var all = (songs: 0, milliseconds: UInt64(0))
        let plan = groupedBy.map { (PackedTag.index($0), $0.fallbacks.map(PackedTag.index)) }
        for index in range where compiled?.matches(index) ?? true {
            let song = content.songs[index]
            let duration = song.durationMilliseconds == SongRecord.unknownDuration ? 0 : UInt64(song.durationMilliseconds)
            guard let plan else {
                all.songs += 1
                all.milliseconds &+= duration
                continue
            }
            for value in valuesWithFallback(plan.0, plan.1, song) {
                totals[value, default: (0, 0)].songs += 1
                totals[value, default: (0, 0)].milliseconds &+= duration
            }
        }
        guard groupedBy != nil else {
            return [LibraryCount(group: nil, songs: all.songs, playtime: Int64(clamping: all.milliseconds / 1000))]
        }
        return totals.keys.sorted(by: content.strings.bytesPrecede).map { value in
            let total = totals[value]!
            return LibraryCount(group: content.strings.string(value), songs: total.songs,
                                playtime: Int64(clamping: total.milliseconds / 1000))
        }
    }

    /// VisitTagWithFallbackOrEmpty: the kind's values, else the first fallback's, else "".
    func valuesWithFallback(_ kind: UInt8, _ fallbacks: [UInt8], _ song: SongRecord) -> [UInt32] {
        for candidate in [kind] + fallbacks {
            let values = Array(content.values(candidate, of: song))
            if !values.isEmpty { return values }
        }
        return [0]
    }

    private func addCombinations(_ columns: [[UInt32]], into rows: inout Set<[UInt32]>) {
        var row: [UInt32] = []
        func add(_ column: Int) {
            if column == columns.count {
                rows.insert(row)
                return
            }
            for value in columns[column] {
                row.append(value)
                add(column + 1)
                row.removeLast()
            }
        }
        add(0)
    }
}

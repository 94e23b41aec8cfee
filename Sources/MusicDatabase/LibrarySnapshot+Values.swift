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
    /// A filter with a refused regular expression finds nothing (see `SongFilter.validate()`).
    public func values(of kind: TagKind, matching filter: SongFilter? = nil, groupedBy: [TagKind] = []) -> [[String]] {
        let kinds = groupedBy + [kind]
        let plans = kinds.map { [PackedTag.index($0)] + $0.fallbacks.map(PackedTag.index) }
        guard let compiled = compile(filter), let range = songRange(for: filter) else { return [] }
        // One or two levels (nearly every `list`) as one integer each; more as arrays.
        var packed = Set<UInt64>()
        var rows = Set<[UInt32]>()
        var columns: [[UInt32]] = Array(repeating: [], count: kinds.count)
        for index in range where compiled.map({ $0.matches(index) }) ?? true {
            let song = content.songs[index]
            for column in columns.indices { valuesWithFallback(plans[column], song, into: &columns[column]) }
            switch columns.count {
            case 1:
                for value in columns[0] { packed.insert(UInt64(value)) }
            case 2:
                for outer in columns[0] { for inner in columns[1] { packed.insert(UInt64(outer) << 32 | UInt64(inner)) } }
            default:
                addCombinations(columns, into: &rows)
            }
        }
        if kinds.count <= 2 {
            rows = Set(packed.map { kinds.count == 1 ? [UInt32($0)] : [UInt32($0 >> 32), UInt32($0 & 0xFFFF_FFFF)] })
        }
        let strings = content.strings
        return rows.sorted { a, b in
            for (x, y) in zip(a, b) where x != y { return strings.bytesPrecede(x, y) }
            return false
        }.map { $0.map(strings.string) }
    }

    /// The filter compiled for this snapshot: .some(nil) without a filter, nil when refused.
    private func compile(_ filter: SongFilter?) -> SnapshotFilter?? {
        guard let filter else { return .some(nil) }
        guard let compiled = try? SnapshotFilter(filter, content: content) else { return nil }
        return .some(compiled)
    }

    /// `count [filter] [group TAG]`: the songs that pass and their playing time, in all or per
    /// value of `groupedBy` (with mpd's fallbacks; "" for songs with none), by bytes.
    public func counts(matching filter: SongFilter? = nil, groupedBy: TagKind? = nil) -> [LibraryCount] {
        guard let compiled = compile(filter), let range = songRange(for: filter) else {
            return groupedBy == nil ? [LibraryCount(group: nil, songs: 0, playtime: 0)] : []
        }
        var totals: [UInt32: (songs: Int, milliseconds: UInt64)] = [:]
        var all = (songs: 0, milliseconds: UInt64(0))
        let plan = groupedBy.map { [PackedTag.index($0)] + $0.fallbacks.map(PackedTag.index) }
        var values: [UInt32] = []
        for index in range where compiled.map({ $0.matches(index) }) ?? true {
            let song = content.songs[index]
            let duration = song.durationMilliseconds == SongRecord.unknownDuration ? 0 : UInt64(song.durationMilliseconds)
            guard let plan else {
                all.songs += 1
                all.milliseconds &+= duration
                continue
            }
            valuesWithFallback(plan, song, into: &values)
            for value in values {
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

    /// VisitTagWithFallbackOrEmpty: the values of the plan's first kind the song has (the kind,
    /// then its fallbacks), else "" (id 0); into a reused buffer.
    func valuesWithFallback(_ plan: [UInt8], _ song: SongRecord, into values: inout [UInt32]) {
        values.removeAll(keepingCapacity: true)
        let tags = content.tags[content.tagRange(of: song)]
        for kind in plan {
            for tag in tags where PackedTag.kind(tag) == kind { values.append(PackedTag.value(tag)) }
            if !values.isEmpty { return }
        }
        values.append(0)
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

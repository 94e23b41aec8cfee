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
        let matching = compiled == nil ? Array(range) : range.filter { index in compiled!.matches(index) }
        // One pass gathers each song's values of each level (with the fallbacks) into flat
        // arrays and notes the distinct values; those are ranked by bytes once (a few
        // thousand albums, not a sort of every row by strings); then each row is its ranks in
        // one integer (mixed radix), so dedup and order are integer work.
        let columnCount = plans.count
        var gathered: [UInt32] = []
        var ends: [Int32] = []  // per song and level, the end of its values in `gathered`
        gathered.reserveCapacity(matching.count * columnCount)
        ends.reserveCapacity(matching.count * columnCount)
        var seen = [UInt8](repeating: 0, count: content.strings.count)  // a bit per level
        var distinct: [[UInt32]] = Array(repeating: [], count: columnCount)
        content.tags.withUnsafeBufferPointer { tags in
            for index in matching {
                let song = content.songs[index]
                let songTags = UnsafeBufferPointer(rebasing: tags[Int(song.tagStart)..<Int(song.tagStart) + Int(song.tagCount)])
                for (column, plan) in plans.enumerated() {
                    let start = gathered.count
                    for kind in plan {
                        for tag in songTags where PackedTag.kind(tag) == kind { gathered.append(PackedTag.value(tag)) }
                        if gathered.count > start { break }
                    }
                    if gathered.count == start { gathered.append(0) }
                    let bit = UInt8(1) << UInt8(min(column, 7))
                    for value in gathered[start...] where column >= 8 || seen[Int(value)] & bit == 0 {
                        if column < 8 { seen[Int(value)] |= bit }
                        distinct[column].append(value)
                    }
                    ends.append(Int32(gathered.count))
                }
            }
        }
        var ranks: [[Int32]] = []
        for column in 0..<columnCount {
            if column >= 8 { distinct[column] = Array(Set(distinct[column])) }
            distinct[column].sort(by: content.strings.bytesPrecede)
            var rank = [Int32](repeating: -1, count: content.strings.count)
            for (position, value) in distinct[column].enumerated() { rank[Int(value)] = Int32(position) }
            ranks.append(rank)
        }
        var radix: UInt64 = 1
        for values in distinct {
            let (product, overflow) = radix.multipliedReportingOverflow(by: UInt64(max(values.count, 1)))
            // Beyond 64 bits (never with real tags): rows as arrays.
            guard !overflow else { return valueRowsAsArrays(matching, plans: plans, ranks: ranks, distinct: distinct) }
            radix = product
        }
        var rows = Set<UInt64>(minimumCapacity: matching.count)
        var start: Int32 = 0
        var position = 0
        var keys: [UInt64] = []
        for _ in matching {
            // Every combination of this song's levels, as mixed-radix keys.
            keys.removeAll(keepingCapacity: true)
            keys.append(0)
            for column in 0..<columnCount {
                let end = ends[position]
                let base = UInt64(distinct[column].count)
                if end - start == 1 {
                    let rank = UInt64(ranks[column][Int(gathered[Int(start)])])
                    for index in keys.indices { keys[index] = keys[index] * base + rank }
                } else {
                    keys = keys.flatMap { key in gathered[Int(start)..<Int(end)].map { key * base + UInt64(ranks[column][Int($0)]) } }
                }
                start = end
                position += 1
            }
            for key in keys { rows.insert(key) }
        }
        let strings = distinct.map { $0.map(content.strings.string) }
        return rows.sorted().map { key in
            var key = key
            var row = [String](repeating: "", count: columnCount)
            for column in (0..<columnCount).reversed() {
                let base = UInt64(distinct[column].count)
                row[column] = strings[column][Int(key % base)]
                key /= base
            }
            return row
        }
    }

    private func valueRowsAsArrays(_ matching: [Int], plans: [[UInt8]], ranks: [[Int32]], distinct: [[UInt32]]) -> [[String]] {
        var rows = Set<[Int32]>()
        var columns: [[UInt32]] = Array(repeating: [], count: plans.count)
        for index in matching {
            for column in plans.indices { valuesWithFallback(plans[column], content.songs[index], into: &columns[column]) }
            addCombinations(columns, into: &rows, ranks: ranks)
        }
        return rows.sorted { $0.lexicographicallyPrecedes($1) }.map { row in
            row.enumerated().map { column, rank in content.strings.string(distinct[column][Int(rank)]) }
        }
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

    private func addCombinations(_ columns: [[UInt32]], into rows: inout Set<[Int32]>, ranks: [[Int32]]) {
        var row: [Int32] = []
        func add(_ column: Int) {
            if column == columns.count {
                rows.insert(row)
                return
            }
            for value in columns[column] {
                row.append(ranks[column][Int(value)])
                add(column + 1)
                row.removeLast()
            }
        }
        add(0)
    }
}

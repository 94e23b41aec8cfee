import Testing
@testable import MusicDatabase
import PlayerCore

/// find, search, list and count, against mpd 0.23's answers on the same library.
@Suite struct QueryTests {

    /// mpd's nested `list` output: a group's line when it changes, then the values.
    static func renderList(_ rows: [[String]], kinds: [TagKind]) -> String {
        var lines: [String] = []
        var previous: [String]?
        for row in rows {
            let first = previous.map { old in zip(old, row).prefix { $0 == $1 }.count } ?? 0
            for level in min(first, row.count - 1)..<row.count { lines.append("\(kinds[level].rawValue): \(row[level])") }
            previous = row
        }
        return lines.joined(separator: "\n")
    }

    static func renderCounts(_ counts: [LibraryCount], kind: TagKind?) -> String {
        counts.map { count in
            (count.group.map { "\(kind!.rawValue): \($0)\n" } ?? "") + "songs: \(count.songs)\nplaytime: \(count.playtime)"
        }.joined(separator: "\n")
    }

    static func answer(_ command: String, _ s: LibrarySnapshot) throws -> String {
        func list(_ kind: TagKind, _ groups: [TagKind] = [], _ filter: SongFilter? = nil) throws -> String {
            renderList(s.values(of: kind, matching: filter, groupedBy: groups), kinds: groups + [kind])
        }
        func find(_ filter: SongFilter, _ sort: SongOrder? = nil, _ window: Range<Int>? = nil) throws -> String {
            fileLines(s.songs(matching: filter, sort: sort, window: window))
        }
        switch command {
        case "list album": return try list(.album)
        case "list album group albumartist": return try list(.album, [.albumArtist])
        case "list date group album group albumartist": return try list(.date, [.albumArtist, .album])
        case "list artist": return try list(.artist)
        case "list genre": return try list(.genre)
        case "list albumartistsort": return try list(.albumArtistSort)
        case "count group albumartist": return renderCounts(s.counts(groupedBy: .albumArtist), kind: .albumArtist)
        case #"count "(album == 'MA')" group date"#:
            return renderCounts(s.counts(matching: .tag(.kind(.album), StringMatch("MA")), groupedBy: .date), kind: .date)
        case #"find "(genre != 'Jazz')""#: return try find(.tag(.kind(.genre), StringMatch("Jazz", negated: true)))
        case #"search "(album contains 'LB')""#:
            return try find(.tag(.kind(.album), StringMatch("LB", foldCase: true, substring: true)))
        case #"find "(albumartistsort == 'AA')""#: return try find(.tag(.kind(.albumArtistSort), StringMatch("AA")))
        case "search any zzz": return try find(.tag(.any, StringMatch("zzz", foldCase: true, substring: true)))
        case #"find "(artist == 'X')" sort -track"#:
            return try find(.tag(.kind(.artist), StringMatch("X")), SongOrder(.tag(.track), descending: true))
        case #"find "(artist == 'X')" sort title window 2:5"#:
            return try find(.tag(.kind(.artist), StringMatch("X")), SongOrder(.tag(.title)), 2..<5)
        case #"find "(base 'Multi/Sub')""#: return try find(.base("Multi/Sub"))
        case #"search "(title =~ 'D[12]T')""#: return try find(.tag(.kind(.title), StringMatch("D[12]T", foldCase: true, isRegex: true)))
        case #"find "(file =~ '^a')""#: return try find(.uri(StringMatch("^a", isRegex: true)))
        case #"find "(!(title contains 'a'))" "(album != '')""#:
            return try find(.and([.not(.tag(.kind(.title), StringMatch("a", substring: true))),
                                  .tag(.kind(.album), StringMatch("", negated: true))]))
        case #"find "(track == '2')""#: return try find(.tag(.kind(.track), StringMatch("2")))
        case #"search "(artistsort == 'art one')""#: return try find(.tag(.kind(.artistSort), StringMatch("art one", foldCase: true)))
        default: throw UnknownCommand(command: command)
        }
    }

    struct UnknownCommand: Error { var command: String }

    @Test(arguments: MPDReference.queries.map(\.0))
    func answersAsMPD(_ command: String) throws {
        let expected = try #require(MPDReference.queries.first { $0.0 == command }?.1)
        let library = try TestLibrary.mpdReference()
        #expect(try Self.answer(command, library.snapshot()) == expected)
    }
}

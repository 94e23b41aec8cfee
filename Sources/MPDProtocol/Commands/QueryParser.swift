import MusicDatabase
import PlayerCore

/// The trailing keywords of the database commands, taken from the end of the arguments as mpd
/// takes them (`src/command/DatabaseCommands.cxx`): for `find` first `window`, then `sort`, then
/// the rest is the filter — so `sort … window …` works and `window … sort …` does not.
enum QueryParser {
    /// mpd's `ParseDatabaseSelection`.
    static func databaseQuery(_ arguments: ArraySlice<String>, foldCase: Bool) throws(MPDError) -> DatabaseQuery {
        var arguments = arguments
        var window: SongRange?
        if let value = popKeyword("window", from: &arguments) {
            window = try ArgumentParser.range(value)
        }
        var sort: SongOrder?
        if var value = popKeyword("sort", from: &arguments) {
            let descending = value.utf8.first == UInt8(ascii: "-")
            if descending { value.removeFirst() }
            sort = SongOrder(try sortKey(value), descending: descending)
        }
        let filter = try FilterParser.parse(arguments, foldCase: foldCase)
        return DatabaseQuery(filter: filter, sort: sort, window: window)
    }

    /// `findadd`/`searchadd`: `position POS` at the very end, then as `find`.
    static func databaseQueryWithPosition(_ arguments: ArraySlice<String>, foldCase: Bool) throws(MPDError) -> (DatabaseQuery, InsertPosition?) {
        var arguments = arguments
        var position: InsertPosition?
        if let text = popKeyword("position", from: &arguments) { position = try InsertPosition.parse(text) }
        return (try databaseQuery(arguments, foldCase: foldCase), position)
    }

    /// mpd's `handle_count`: one `group TAG` at the end, the rest (possibly nothing) the filter.
    static func countQuery(_ arguments: ArraySlice<String>) throws(MPDError) -> CountQuery {
        var arguments = arguments
        var group: TagKind?
        if let name = popKeyword("group", from: &arguments) {
            guard let kind = TagKind(mpdName: name) else { throw unknownTagType(name) }
            group = kind
        }
        let filter = arguments.isEmpty ? nil : try FilterParser.parse(arguments, foldCase: false)
        return CountQuery(filter: filter, group: group)
    }

    /// mpd's `handle_list`.
    static func listQuery(_ arguments: ArraySlice<String>) throws(MPDError) -> ListQuery {
        var arguments = arguments
        guard let name = arguments.popFirst() else { throw MPDError(.argument, "too few arguments for \"list\"") }
        if ASCII.equalsIgnoringCase(name, "file") || ASCII.equalsIgnoringCase(name, "filename") {
            let filter = arguments.isEmpty ? nil : try FilterParser.parse(arguments, foldCase: false)
            return ListQuery(target: .file, filter: filter)
        }
        guard let kind = TagKind(mpdName: name) else { throw unknownTagType(name) }

        var filter: SongFilter?
        if arguments.count == 1, let only = arguments.first, only.utf8.first != UInt8(ascii: "(") {
            // The form of mpd before 0.12: `list album ARTIST`.
            guard kind == .album else { throw MPDError(.argument, "should be \"Album\" for 3 arguments") }
            filter = .tag(.kind(.artist), StringMatch(only))
            arguments.removeAll()
        }

        var groups = [TagKind]()
        while let groupName = popKeyword("group", from: &arguments) {
            guard let group = TagKind(mpdName: groupName) else { throw unknownTagType(groupName) }
            guard group != kind, !groups.contains(group) else { throw MPDError(.argument, "Conflicting group") }
            groups.append(group)
        }
        if !arguments.isEmpty {
            filter = try FilterParser.parse(arguments, foldCase: false)
        }
        return ListQuery(target: .tag(kind), filter: filter, groups: groups)
    }

    /// The value of `KEYWORD VALUE` when they are the last two arguments (exact, case matters),
    /// removed from the arguments.
    private static func popKeyword(_ keyword: String, from arguments: inout ArraySlice<String>) -> String? {
        guard arguments.count >= 2, arguments[arguments.endIndex - 2] == keyword else { return nil }
        let value = arguments[arguments.endIndex - 1]
        arguments.removeLast(2)
        return value
    }

    /// mpd's `ParseSortTag`.
    private static func sortKey(_ name: String) throws(MPDError) -> SongOrder.Key {
        if ASCII.equalsIgnoringCase(name, "Last-Modified") { return .lastModified }
        guard let kind = TagKind(mpdName: name) else { throw MPDError(.argument, "Unknown sort tag") }
        return .tag(kind)
    }

    private static func unknownTagType(_ name: String) -> MPDError {
        MPDError(.argument, "Unknown tag type: \(name)")
    }
}

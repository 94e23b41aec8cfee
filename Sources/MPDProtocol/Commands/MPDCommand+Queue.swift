/// The arguments of the queue, library and stored-playlist commands.
extension MPDCommand {
    static func queueCommand(_ name: String, _ a: ArraySlice<String>) throws(MPDError) -> MPDCommand? {
        switch name {
        case "add":
            // "add /" once added the whole library; mpd keeps it working.
            let uri = a[0] == "/" ? "" : a[0]
            return .add(uri: uri, position: a.count > 1 ? try InsertPosition.parse(a[1]) : nil)
        case "addid": return .addID(uri: a[0], position: a.count > 1 ? try InsertPosition.parse(a[1]) : nil)
        case "clear": return .clear
        case "delete": return .delete(try ArgumentParser.range(a[0]))
        case "deleteid": return .deleteID(try ArgumentParser.unsigned(a[0]))
        case "move":
            let range = try ArgumentParser.range(a[0])
            guard range.end != nil else { throw MPDError(.argument, "Open-ended range not supported") }
            return .move(range, to: try MoveDestination.parse(a[1]))
        case "moveid":
            // mpd looks the id up ("No such song") before it reads the destination at all.
            return .moveID(try ArgumentParser.unsigned(a[0]), to: MoveDestination(a[1]))
        case "swap": return .swap(try ArgumentParser.unsigned(a[0]), try ArgumentParser.unsigned(a[1]))
        case "swapid": return .swapID(try ArgumentParser.unsigned(a[0]), try ArgumentParser.unsigned(a[1]))
        case "shuffle": return .shuffle(try optionalRange(a.first))
        case "prio":
            // mpd sets each range's priority as it reads it, so a bad second range leaves the first
            // changed; here nothing changes unless every range is good.
            let priority = try ArgumentParser.unsigned(a[0], maximum: 255)
            var ranges = [SongRange]()
            for text in a.dropFirst() { ranges.append(try ArgumentParser.range(text)) }
            return .setPriority(priority, ranges: ranges)
        case "prioid":
            let priority = try ArgumentParser.unsigned(a[0], maximum: 255)
            var ids = [Int]()
            for text in a.dropFirst() { ids.append(try ArgumentParser.unsigned(text)) }
            return .setPriorityByID(priority, ids: ids)
        case "playlist": return .playlist
        case "playlistinfo": return .playlistInfo(try optionalRange(a.first))
        case "playlistid":
            guard let text = a.first else { return .playlistID(nil) }
            return .playlistID(try ArgumentParser.unsigned(text))
        case "playlistfind": return .playlistFind(try FilterParser.parse(a, foldCase: false))
        case "playlistsearch": return .playlistSearch(try FilterParser.parse(a, foldCase: true))
        case "plchanges":
            return .playlistChanges(since: try ArgumentParser.uint32(a[0]), try optionalRange(a.dropFirst().first))
        case "plchangesposid":
            return .playlistChangesPositions(since: try ArgumentParser.uint32(a[0]), try optionalRange(a.dropFirst().first))
        default: return nil
        }
    }

    static func libraryCommand(_ name: String, _ a: ArraySlice<String>) throws(MPDError) -> MPDCommand? {
        switch name {
        case "find": return .find(try QueryParser.databaseQuery(a, foldCase: false))
        case "search": return .search(try QueryParser.databaseQuery(a, foldCase: true))
        case "findadd":
            let (query, position) = try QueryParser.databaseQueryWithPosition(a, foldCase: false)
            return .findAdd(query, position: position)
        case "searchadd":
            let (query, position) = try QueryParser.databaseQueryWithPosition(a, foldCase: true)
            return .searchAdd(query, position: position)
        case "count": return .count(try QueryParser.countQuery(a))
        case "list": return .list(try QueryParser.listQuery(a))
        case "listall": return .listAll(a.first ?? "")
        case "listallinfo": return .listAllInfo(a.first ?? "")
        case "listfiles": return .listFiles(a.first ?? "")
        case "lsinfo":
            // "lsinfo /" is malformed but once worked; mpd keeps it working.
            let uri = a.first ?? ""
            return .lsinfo(uri == "/" ? "" : uri)
        case "update": return .update(try updatePath(a.first))
        case "rescan": return .rescan(try updatePath(a.first))
        case "albumart": return .albumArt(uri: a[0], offset: try ArgumentParser.unsigned(a[1]))
        case "readpicture": return .readPicture(uri: a[0], offset: try ArgumentParser.unsigned(a[1]))
        default: return nil
        }
    }

    static func storedPlaylistCommand(_ name: String, _ a: ArraySlice<String>) throws(MPDError) -> MPDCommand? {
        switch name {
        case "listplaylist": return .listPlaylist(a[0])
        case "listplaylistinfo": return .listPlaylistInfo(a[0])
        case "listplaylists": return .listPlaylists
        case "load":
            let range = try optionalRange(a.dropFirst().first)
            return .load(a[0], range: range, position: a.count > 2 ? try InsertPosition.parse(a[2]) : nil)
        case "playlistadd":
            guard a.count >= 3 else { return .playlistAdd(a[0], uri: a[1], position: nil) }
            return .playlistAdd(a[0], uri: a[1], position: try ArgumentParser.unsigned(a[2]))
        case "playlistclear": return .playlistClear(a[0])
        case "playlistdelete": return .playlistDelete(a[0], try ArgumentParser.range(a[1]))
        case "playlistmove":
            return .playlistMove(a[0], from: try ArgumentParser.unsigned(a[1]), to: try ArgumentParser.unsigned(a[2]))
        case "rename": return .rename(a[0], to: a[1])
        case "rm": return .remove(a[0])
        case "save": return .save(a[0])
        default: return nil
        }
    }

    private static func optionalRange(_ text: String?) throws(MPDError) -> SongRange {
        guard let text else { return .all }
        return try ArgumentParser.range(text)
    }

    /// mpd's `handle_update`: "" and "/" are the whole library; anything else must be a safe
    /// local path.
    private static func updatePath(_ text: String?) throws(MPDError) -> String {
        guard let path = text, !path.isEmpty, path != "/" else { return "" }
        guard LocalURI.isSafe(path) else { throw MPDError(.argument, "Malformed path") }
        return path
    }
}

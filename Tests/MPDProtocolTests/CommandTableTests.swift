import Testing
@testable import MPDProtocol

/// The command table against a real mpd 0.23.12: `commands`/`notcommands` per permission set
/// (mpd's listings, less the commands Aubade leaves out), the permission errors, and a parser for
/// every row.
@Suite struct CommandTableTests {
    /// (permissions, `commands`, `notcommands`) as mpd listed them for a client with that
    /// password, filtered to this table.
    static let listings: [(MPDPermissions, String, String)] = [
        // password "...@read"
        (.read, "command: albumart\ncommand: binarylimit\ncommand: close\ncommand: commands\ncommand: count\ncommand: currentsong\ncommand: decoders\ncommand: find\ncommand: getvol\ncommand: idle\ncommand: list\ncommand: listall\ncommand: listallinfo\ncommand: listfiles\ncommand: listpartitions\ncommand: listplaylist\ncommand: listplaylistinfo\ncommand: listplaylists\ncommand: lsinfo\ncommand: notcommands\ncommand: outputs\ncommand: password\ncommand: ping\ncommand: playlist\ncommand: playlistfind\ncommand: playlistid\ncommand: playlistinfo\ncommand: playlistsearch\ncommand: plchanges\ncommand: plchangesposid\ncommand: readpicture\ncommand: replay_gain_status\ncommand: search\ncommand: stats\ncommand: status\ncommand: tagtypes\ncommand: urlhandlers\n", "command: add\ncommand: addid\ncommand: clear\ncommand: consume\ncommand: crossfade\ncommand: delete\ncommand: deleteid\ncommand: disableoutput\ncommand: enableoutput\ncommand: findadd\ncommand: kill\ncommand: load\ncommand: move\ncommand: moveid\ncommand: next\ncommand: pause\ncommand: play\ncommand: playid\ncommand: playlistadd\ncommand: playlistclear\ncommand: playlistdelete\ncommand: playlistmove\ncommand: previous\ncommand: prio\ncommand: prioid\ncommand: random\ncommand: rename\ncommand: repeat\ncommand: replay_gain_mode\ncommand: rescan\ncommand: rm\ncommand: save\ncommand: searchadd\ncommand: seek\ncommand: seekcur\ncommand: seekid\ncommand: setvol\ncommand: shuffle\ncommand: single\ncommand: stop\ncommand: swap\ncommand: swapid\ncommand: toggleoutput\ncommand: update\ncommand: volume\n"),
        // password "...@read,add"
        ([.read, .add], "command: add\ncommand: addid\ncommand: albumart\ncommand: binarylimit\ncommand: close\ncommand: commands\ncommand: count\ncommand: currentsong\ncommand: decoders\ncommand: find\ncommand: findadd\ncommand: getvol\ncommand: idle\ncommand: list\ncommand: listall\ncommand: listallinfo\ncommand: listfiles\ncommand: listpartitions\ncommand: listplaylist\ncommand: listplaylistinfo\ncommand: listplaylists\ncommand: load\ncommand: lsinfo\ncommand: notcommands\ncommand: outputs\ncommand: password\ncommand: ping\ncommand: playlist\ncommand: playlistfind\ncommand: playlistid\ncommand: playlistinfo\ncommand: playlistsearch\ncommand: plchanges\ncommand: plchangesposid\ncommand: readpicture\ncommand: replay_gain_status\ncommand: search\ncommand: searchadd\ncommand: stats\ncommand: status\ncommand: tagtypes\ncommand: urlhandlers\n", "command: clear\ncommand: consume\ncommand: crossfade\ncommand: delete\ncommand: deleteid\ncommand: disableoutput\ncommand: enableoutput\ncommand: kill\ncommand: move\ncommand: moveid\ncommand: next\ncommand: pause\ncommand: play\ncommand: playid\ncommand: playlistadd\ncommand: playlistclear\ncommand: playlistdelete\ncommand: playlistmove\ncommand: previous\ncommand: prio\ncommand: prioid\ncommand: random\ncommand: rename\ncommand: repeat\ncommand: replay_gain_mode\ncommand: rescan\ncommand: rm\ncommand: save\ncommand: seek\ncommand: seekcur\ncommand: seekid\ncommand: setvol\ncommand: shuffle\ncommand: single\ncommand: stop\ncommand: swap\ncommand: swapid\ncommand: toggleoutput\ncommand: update\ncommand: volume\n"),
        // password "...@control"
        ([.control, .player], "command: binarylimit\ncommand: clear\ncommand: close\ncommand: commands\ncommand: consume\ncommand: crossfade\ncommand: delete\ncommand: deleteid\ncommand: move\ncommand: moveid\ncommand: next\ncommand: notcommands\ncommand: password\ncommand: pause\ncommand: ping\ncommand: play\ncommand: playid\ncommand: playlistadd\ncommand: playlistclear\ncommand: playlistdelete\ncommand: playlistmove\ncommand: previous\ncommand: prio\ncommand: prioid\ncommand: random\ncommand: rename\ncommand: repeat\ncommand: replay_gain_mode\ncommand: rescan\ncommand: rm\ncommand: save\ncommand: seek\ncommand: seekcur\ncommand: seekid\ncommand: setvol\ncommand: shuffle\ncommand: single\ncommand: stop\ncommand: swap\ncommand: swapid\ncommand: tagtypes\ncommand: update\ncommand: volume\n", "command: add\ncommand: addid\ncommand: albumart\ncommand: count\ncommand: currentsong\ncommand: decoders\ncommand: disableoutput\ncommand: enableoutput\ncommand: find\ncommand: findadd\ncommand: getvol\ncommand: idle\ncommand: kill\ncommand: list\ncommand: listall\ncommand: listallinfo\ncommand: listfiles\ncommand: listpartitions\ncommand: listplaylist\ncommand: listplaylistinfo\ncommand: listplaylists\ncommand: load\ncommand: lsinfo\ncommand: outputs\ncommand: playlist\ncommand: playlistfind\ncommand: playlistid\ncommand: playlistinfo\ncommand: playlistsearch\ncommand: plchanges\ncommand: plchangesposid\ncommand: readpicture\ncommand: replay_gain_status\ncommand: search\ncommand: searchadd\ncommand: stats\ncommand: status\ncommand: toggleoutput\ncommand: urlhandlers\n"),
    ]

    @Test(arguments: listings)
    func listsCommandsAsMPD(_ permissions: MPDPermissions, _ available: String, _ unavailable: String) {
        var writer = ResponseWriter()
        writer.commandNames(CommandTable.available(to: permissions))
        #expect(text(writer) == available)
        writer = ResponseWriter()
        writer.commandNames(CommandTable.unavailable(to: permissions))
        #expect(text(writer) == unavailable)
    }

    @Test func theTableIsSortedAsMPDsAndComplete() {
        let names = CommandTable.commands.map(\.name)
        #expect(names == names.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
        #expect(names.count == 82)
        #expect(CommandTable.available(to: .all) == names)
        #expect(CommandTable.unavailable(to: .all).isEmpty)
        #expect(CommandTable.spec(named: "noidle") == nil)
        #expect(CommandTable.spec(named: "searchcount") == nil)
    }

    @Test func permissionErrorsComeBeforeArgumentCounts() {
        // A client with "read" only (mpd's default_permissions "read").
        #expect(parseAnswer("play", permissions: .read) == "ACK [4@0] {play} you don't have permission for \"play\"\n")
        #expect(parseAnswer("play x y", permissions: .read) == "ACK [4@0] {play} you don't have permission for \"play\"\n")
        #expect(parseAnswer("update", permissions: .read) == "ACK [4@0] {update} you don't have permission for \"update\"\n")
        #expect(parseAnswer("foo", permissions: .read) == "ACK [5@0] {} unknown command \"foo\"\n")
        #expect(parseAnswer("password", permissions: []) == "ACK [2@0] {password} wrong number of arguments for \"password\"\n")
        #expect(parseAnswer("ping", permissions: []) == "OK\n")
        #expect(parseAnswer("kill now please", permissions: .admin) == "OK\n")
        #expect(parseAnswer("close x y") == "OK\n")
    }

    @Test func permissionsParseAsMPDsConfiguration() throws {
        #expect(try MPDPermissions(parsing: "read,add,control,admin") == .all)
        #expect(try MPDPermissions(parsing: "control") == [.control, .player])
        #expect(try MPDPermissions(parsing: "read,,add,") == [.read, .add])
        #expect(try MPDPermissions(parsing: "") == [])
        #expect(throws: MPDPermissions.UnknownPermission(name: " add")) { try MPDPermissions(parsing: "read, add") }
        #expect(throws: MPDPermissions.UnknownPermission(name: "Read")) { try MPDPermissions(parsing: "Read") }
        #expect(MPDPermissions.UnknownPermission(name: "x").description == "unknown permission \"x\"")
    }

    /// One good request per command: each parses, and names itself as the table does.
    static let goodRequests = [
        "add a.mp3", "addid a.mp3 +0", "albumart a.mp3 0", "binarylimit 64", "clear", "close", "commands",
        "consume 1", "count group artist", "crossfade 3", "currentsong", "decoders", "delete 0:2", "deleteid 4",
        "disableoutput 0", "enableoutput 0", "find artist A", "findadd artist A position 0", "getvol", "idle",
        "kill", "list album", "listall", "listallinfo A", "listfiles", "listpartitions", "listplaylist p",
        "listplaylistinfo p", "listplaylists", "load p 0:1 -1", "lsinfo /", "move 0:1 3", "moveid 4 +1", "next",
        "notcommands", "outputs", "password secret", "pause", "ping", "play 0", "playid", "playlist",
        "playlistadd p a.mp3 0", "playlistclear p", "playlistdelete p 0", "playlistfind album L", "playlistid 1",
        "playlistinfo", "playlistmove p 0 1", "playlistsearch album l", "plchanges 0", "plchangesposid 3 0:",
        "previous", "prio 255 0:1 3", "prioid 0 1 2", "random 0", "readpicture a.mp3 0", "rename p q",
        "repeat 1", "replay_gain_mode auto", "replay_gain_status", "rescan", "rm p", "save p", "search any a",
        "searchadd any a", "seek 0 1.5", "seekcur -2", "seekid 4 0", "setvol 50", "shuffle", "single oneshot",
        "stats", "status", "stop", "swap 0 1", "swapid 1 2", "tagtypes", "toggleoutput 0", "update A",
        "urlhandlers", "volume -5",
    ]

    @Test func everyCommandOfTheTableParses() throws {
        #expect(Set(Self.goodRequests.map { $0.split(separator: " ")[0] }).count == CommandTable.commands.count)
        for line in Self.goodRequests {
            let parsed = try command(line)
            #expect(parsed.name == String(line.split(separator: " ")[0]))
        }
    }
}

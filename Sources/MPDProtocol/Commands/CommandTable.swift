/// The commands Aubade answers, with mpd 0.23's permissions and argument counts, sorted by name
/// as mpd's table is (its `commands` listing is in this order).
///
/// A subset of mpd's table: the commands of a music player and its library. Others (stickers,
/// partitions beyond `listpartitions`, mounts, messages, `searchcount` which is mpd 0.24) are
/// "unknown command" here, as they would be on an mpd built without them. `noidle` is not in the
/// table: it is only meaningful while idling, and mpd handles it before the table (see
/// `CommandReader`), so `commands` does not list it.
public enum CommandTable {
    public static let commands: [CommandSpec] = [
        CommandSpec("add", .add, 1, 2),
        CommandSpec("addid", .add, 1, 2),
        CommandSpec("albumart", .read, 2, 2),
        CommandSpec("binarylimit", [], 1, 1),
        CommandSpec("clear", .player, 0, 0),
        CommandSpec("close", [], nil, nil),
        CommandSpec("commands", [], 0, 0),
        CommandSpec("consume", .player, 1, 1),
        CommandSpec("count", .read, 1, nil),
        CommandSpec("crossfade", .player, 1, 1),
        CommandSpec("currentsong", .read, 0, 0),
        CommandSpec("decoders", .read, 0, 0),
        CommandSpec("delete", .player, 1, 1),
        CommandSpec("deleteid", .player, 1, 1),
        CommandSpec("disableoutput", .admin, 1, 1),
        CommandSpec("enableoutput", .admin, 1, 1),
        CommandSpec("find", .read, 1, nil),
        CommandSpec("findadd", .add, 1, nil),
        CommandSpec("getvol", .read, 0, 0),
        CommandSpec("idle", .read, 0, nil),
        CommandSpec("kill", .admin, nil, nil),
        CommandSpec("list", .read, 1, nil),
        CommandSpec("listall", .read, 0, 1),
        CommandSpec("listallinfo", .read, 0, 1),
        CommandSpec("listfiles", .read, 0, 1),
        CommandSpec("listpartitions", .read, 0, 0),
        CommandSpec("listplaylist", .read, 1, 1),
        CommandSpec("listplaylistinfo", .read, 1, 1),
        CommandSpec("listplaylists", .read, 0, 0),
        CommandSpec("load", .add, 1, 3),
        CommandSpec("lsinfo", .read, 0, 1),
        CommandSpec("move", .player, 2, 2),
        CommandSpec("moveid", .player, 2, 2),
        CommandSpec("next", .player, 0, 0),
        CommandSpec("notcommands", [], 0, 0),
        CommandSpec("outputs", .read, 0, 0),
        CommandSpec("password", [], 1, 1),
        CommandSpec("pause", .player, 0, 1),
        CommandSpec("ping", [], 0, 0),
        CommandSpec("play", .player, 0, 1),
        CommandSpec("playid", .player, 0, 1),
        CommandSpec("playlist", .read, 0, 0),
        CommandSpec("playlistadd", .control, 2, 3),
        CommandSpec("playlistclear", .control, 1, 1),
        CommandSpec("playlistdelete", .control, 2, 2),
        CommandSpec("playlistfind", .read, 1, nil),
        CommandSpec("playlistid", .read, 0, 1),
        CommandSpec("playlistinfo", .read, 0, 1),
        CommandSpec("playlistmove", .control, 3, 3),
        CommandSpec("playlistsearch", .read, 1, nil),
        CommandSpec("plchanges", .read, 1, 2),
        CommandSpec("plchangesposid", .read, 1, 2),
        CommandSpec("previous", .player, 0, 0),
        CommandSpec("prio", .player, 2, nil),
        CommandSpec("prioid", .player, 2, nil),
        CommandSpec("random", .player, 1, 1),
        CommandSpec("readpicture", .read, 2, 2),
        CommandSpec("rename", .control, 2, 2),
        CommandSpec("repeat", .player, 1, 1),
        CommandSpec("replay_gain_mode", .player, 1, 1),
        CommandSpec("replay_gain_status", .read, 0, 0),
        CommandSpec("rescan", .control, 0, 1),
        CommandSpec("rm", .control, 1, 1),
        CommandSpec("save", .control, 1, 1),
        CommandSpec("search", .read, 1, nil),
        CommandSpec("searchadd", .add, 1, nil),
        CommandSpec("seek", .player, 2, 2),
        CommandSpec("seekcur", .player, 1, 1),
        CommandSpec("seekid", .player, 2, 2),
        CommandSpec("setvol", .player, 1, 1),
        CommandSpec("shuffle", .player, 0, 1),
        CommandSpec("single", .player, 1, 1),
        CommandSpec("stats", .read, 0, 0),
        CommandSpec("status", .read, 0, 0),
        CommandSpec("stop", .player, 0, 0),
        CommandSpec("swap", .player, 2, 2),
        CommandSpec("swapid", .player, 2, 2),
        CommandSpec("tagtypes", [], 0, nil),
        CommandSpec("toggleoutput", .admin, 1, 1),
        CommandSpec("update", .control, 0, 1),
        CommandSpec("urlhandlers", .read, 0, 0),
        CommandSpec("volume", .player, 1, 1),
    ]

    private static let byName: [String: CommandSpec] =
        Dictionary(uniqueKeysWithValues: commands.map { ($0.name, $0) })

    /// The row for a command name (exact: command names are lower case).
    public static func spec(named name: String) -> CommandSpec? {
        byName[name]
    }

    /// The row for a request, after mpd's checks in mpd's order: known, permitted, argument
    /// count. Each failure is the ACK mpd sends.
    public static func check(_ request: MPDRequest, permissions: MPDPermissions) throws(MPDError) -> CommandSpec {
        guard let spec = byName[request.name] else {
            throw MPDError(.unknown, "unknown command \"\(request.name)\"")
        }
        try spec.check(argumentCount: request.arguments.count, permissions: permissions)
        return spec
    }

    /// The names `commands` lists: those these permissions allow.
    public static func available(to permissions: MPDPermissions) -> [String] {
        commands.filter { permissions.isSuperset(of: $0.permission) }.map(\.name)
    }

    /// The names `notcommands` lists: those these permissions do not allow.
    public static func unavailable(to permissions: MPDPermissions) -> [String] {
        commands.filter { !permissions.isSuperset(of: $0.permission) }.map(\.name)
    }
}

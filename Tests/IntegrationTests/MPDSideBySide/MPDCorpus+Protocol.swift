@testable import TestSupport

/// The connection's own commands and the protocol around the commands: what is served, tag
/// types, binary limits and pictures in chunks, argument and syntax errors, command lists with a
/// failure inside, idle and noidle, permissions, the Unix socket's local files, close, and
/// updates of the database.
extension MPDCorpus {
    static let connection: [SideBySideStep] = [
        "ping", "commands", "notcommands", "tagtypes", "urlhandlers", "decoders", "listpartitions",
        "tagtypes clear", "tagtypes", "tagtypes enable Artist Title", "tagtypes", "lsinfo \"Compilations/Summer Hits\"",
        "tagtypes disable Title", "find album Tides", "tagtypes enable bogus", "tagtypes disable", "tagtypes enable",
        "tagtypes all", "tagtypes", "tagtypes disable musicbrainz_albumid COMMENT", "tagtypes",
        "lsinfo \"Aurora Lane/Northern Lights (2019)/01 Polar Night.mp3\"", "tagtypes bogus", "tagtypes all",
    ].map(SideBySideStep.command)

    static let pictures: [SideBySideStep] = [
        .command("binarylimit 63"), .command("binarylimit x"), .command("binarylimit"), .command("binarylimit 64"),
        .picture(command: "albumart", uri: MPDTestLibrary.coverFileSong),
        .picture(command: "readpicture", uri: MPDTestLibrary.embeddedCoverSong),
        .command("binarylimit 8192"),
        .picture(command: "albumart", uri: MPDTestLibrary.coverFileSong),
        .picture(command: "readpicture", uri: MPDTestLibrary.embeddedCoverSong),
        .command("binarylimit 1000000"), .picture(command: "albumart", uri: "Aurora Lane/Northern Lights (2019)/02 Midnight Sun.mp3"),
        .command("albumart \"\(MPDTestLibrary.uncoveredSong)\" 0"), .command("readpicture \"\(MPDTestLibrary.uncoveredSong)\" 0"),
        .command("readpicture \"\(MPDTestLibrary.coverFileSong)\" 0"), .command("albumart \"Brass Parade/Marching On/02 Encore.mp3\" 0"),
        .command("albumart nowhere.mp3 0"), .command("readpicture nowhere.mp3 0"), .command("albumart \"Loose/Deep\" 0"),
        .command("albumart \"\(MPDTestLibrary.coverFileSong)\" x"), .command("albumart \"\(MPDTestLibrary.coverFileSong)\""),
        .command("readpicture \"\(MPDTestLibrary.embeddedCoverSong)\" -1"), .command("binarylimit 8192"),
    ]

    static let syntax: [SideBySideStep] = [
        "nosuchcommand", "nosuchcommand with arguments", "status extra", "lsinfo a b", "play abc", "setvol",
        "find \"artist", "find artist \"Aurora Lane", "find artist \"a\"b", "lsinfo \"Aurora\\ Lane\"",
        "ping \"\"", "random", "random 1 0", "lsinfo /etc", "lsinfo \"file:///etc\"", "listfiles /etc",
        // mpd's commands Aubade does not serve, each with arguments that change nothing on mpd.
        "config", "sticker list song x", "mount", "subscribe", "channels", "newpartition", "searchcount any x",
        "searchaddpl", "readcomments x", "readmessages", "getfingerprint", "clearerror",
    ].map(SideBySideStep.command) + [
        .client(unix: false, steps: [.command("Status")]),
        .client(unix: false, steps: [.command("_status")]),
        .client(unix: false, steps: [.command("command_list_end")]),
    ]

    static let commandLists: [SideBySideStep] = [
        .batch(["command_list_begin", "status", "currentsong", "command_list_end"]),
        .batch(["command_list_ok_begin", "ping", "setvol 20", "getvol", "command_list_end"]),
        .batch(["command_list_ok_begin", "ping", "nosuchcommand", "ping", "command_list_end"]),
        .batch(["command_list_begin", "setvol 30", "lsinfo nowhere", "setvol 40", "command_list_end"]), .command("getvol"),
        .batch(["command_list_begin", "add \"Loose/untagged tone.mp3\"", "add nowhere", "command_list_end"]),
        .command("playlist"), .command("clear"),
        .batch(["command_list_ok_begin", "command_list_begin", "ping", "command_list_end"]),
        .batch(["command_list_begin", "command_list_end"]), .batch(["command_list_ok_begin", "command_list_end"]),
        .batch(["command_list_ok_begin", "status", "stats", "play 99", "command_list_end"]),
        .batch(["command_list_begin", "idle", "ping", "command_list_end"]),
        .command("setvol 100"),
    ]

    static let idling: [SideBySideStep] = [
        .idle("idle", trigger: [.command("noidle")]),
        .idle("idle player", trigger: [.command("add \"Loose/untagged tone.mp3\""), .command("play 0"), .waitForPlayback]),
        .idle("idle playlist", trigger: [.command("add \"Loose/Deep\"")]),
        .idle("idle player", trigger: [.command("pause 1")]),
        .idle("idle options", trigger: [.command("repeat 1"), .command("repeat 0")]),
        .idle("idle mixer", trigger: [.command("setvol 30")]),
        .idle("idle stored_playlist", trigger: [.command("save idled")]),
        .idle("idle stored_playlist playlist", trigger: [.command("rm idled")]),
        .idle("idle update", trigger: [.command("update"), .waitForUpdate]),
        .idle("idle output", trigger: [.command("disableoutput 0")]),
        .idle("idle player mixer", trigger: [.command("stop")]),
        .command("enableoutput 0"), .command("setvol 100"), .command("clear"),
        .command("idle bogus"), .command("idle player bogus"),
        // noidle with no idle running: no answer at all (mpd); the ping after it is answered.
        .client(unix: false, steps: [.batch(["noidle", "ping"])]),
    ]

    static let permissions: [SideBySideStep] = [
        .client(unix: false, steps: [
            "password wrong", "password reader", "status", "commands", "notcommands", "add \"Loose/untagged tone.mp3\"",
            "play", "setvol 10", "save x", "update", "disableoutput 0", "kill", "tagtypes", "ping", "lsinfo Loose",
            "playlistadd x y", "password", "password a b",
        ].map(SideBySideStep.command)),
    ]

    static let unixSocket: [SideBySideStep] = [
        .client(unix: true, steps: [
            "add \"{music}/Loose/untagged tone.mp3\"", "add \"file://{music}/Compilations/Summer Hits/01 Sunny.mp3\"",
            "addid \"{music}/Loose/untagged tone.mp3\"", "add \"{music}/Loose\"", "add /nowhere.mp3",
            "add \"file:///nowhere.mp3\"", "add \"file://{music}/Loose/readme.txt\"", "playlist", "playlistinfo 0",
            "albumart \"{music}/\(MPDTestLibrary.coverFileSong)\" 0", "readpicture \"{music}/\(MPDTestLibrary.embeddedCoverSong)\" 0",
            "lsinfo /etc", "lsinfo \"{music}/Loose/untagged tone.mp3\"", "listfiles \"{music}/Aurora Lane\"", "clear",
        ].map(SideBySideStep.command)),
        .client(unix: false, steps: [.command("close")]),
    ]

    static let updates: [SideBySideStep] = [
        .command("update"), .waitForUpdate, .command("update Loose"), .waitForUpdate,
        .command("update \"Compilations/Summer Hits/01 Sunny.mp3\""), .waitForUpdate, .command("rescan"), .waitForUpdate,
        .command("rescan Loose"), .waitForUpdate, .command("update nowhere"), .waitForUpdate, .command("update ../etc"),
        .command("update /etc"), .command("update a b"), .waitForUpdate, .command("stats"), .command("lsinfo Loose"),
    ]

    static let protocolParts: [SideBySideStep] = connection + pictures + syntax + commandLists + idling + permissions
        + unixSocket + updates
}

/// The queue and the player: adding, listing, searching, editing (by position and by id), priorities,
/// `plchanges` after edits and after seeded random edits, playback and its options, the volume,
/// outputs, and their errors. Starts and ends with an empty queue.
extension MPDCorpus {
    static let queue: [SideBySideStep] = queueEdits + queueErrors + playback + options + seeded + outputs

    static let queueEdits: [SideBySideStep] = [
        .command("status"), .command("playlistinfo"), .command("playlist"), .command("currentsong"),
        .command("plchanges 0"), .markVersion("empty"),
        .command("add \"Aurora Lane/Northern Lights (2019)\""), .command("add \"Compilations/Summer Hits/02 Breeze.mp3\""),
        .command("addid \"Brass Parade/Marching On/01 Fanfare.mp3\""),
        .command("addid \"Brass Parade/Marching On/02 Encore.mp3\" 1"),
        .command("add \"Loose/Deep\" 0"), .command("status"), .markVersion("filled"),
        .command("playlistinfo"), .command("playlist"), .command("playlistid"), .command("playlistid {id:2}"),
        .command("playlistinfo 2"), .command("playlistinfo 1:3"), .command("playlistinfo 5:"), .command("playlistinfo 6:6"),
        .command("playlistfind artist \"Aurora Lane\""), .command("playlistsearch title n"),
        .command("playlistfind \"(title == \\\"Encore\\\")\""), .command("playlistsearch \"(any contains \\\"brass\\\")\""),
        .command("playlistfind file \"Loose/Deep/er/still/Bottom.mp3\""), .command("playlistsearch any \"\""),
        .command("plchanges {version:empty}"), .command("plchangesposid {version:empty}"),
        .command("plchanges {version:filled}"), .command("plchanges 0 1:3"), .command("plchangesposid 0 2:"),
        .command("move 0 3"), .command("move 1:3 0"), .command("moveid {id:0} 2"), .command("swap 0 1"),
        .command("swapid {id:0} {id:2}"), .command("move 5 0"), .command("move 0 -1"), .command("playlist"),
        .command("plchanges {version:filled}"), .command("plchangesposid {version:filled}"),
        .batch(KnownDifferences.noChangeEditsLines), .markVersion("moved"),
        .command("prio 5 0"), .command("prioid 10 {id:1}"), .command("prio 255 0:3"), .command("prio 0 1 3"),
        .command("prioid 7 {id:4} {id:5}"), .command("playlistinfo"), .command("plchanges {version:moved}"),
        .command("playlistfind \"(prio >= 7)\""), .command("status"),
        .command("delete 6"), .command("delete 0:2"), .command("deleteid {id:0}"), .command("delete 1:"),
        .command("playlistinfo"), .command("plchangesposid {version:moved}"), .command("status"),
        .command("clear"), .command("status"), .command("plchanges {version:moved}"), .command("playlistinfo"),
    ]

    static let queueErrors: [SideBySideStep] = [
        "findadd album Tides", "searchadd title sun 0", "findadd artist \"Coral Bay\" position 1",
        "searchadd \"(genre contains \\\"o\\\")\" sort title window 0:2", "searchadd", "findadd nosuchtag x",
        "searchadd any x position x", "playlist", "clear",
        "add \"Compilations/Summer Hits\"", "delete 99", "delete 5:2", "delete -1", "delete x", "delete 1:99",
        "move 99 0", "move 0 99", "move 0:99 0", "moveid 99999 0", "moveid {id:0} 99", "swap 0 99", "swap x 0",
        "swapid 99999 {id:0}", "deleteid 99999", "deleteid x", "playlistid 99999", "playlistinfo 99",
        "playlistinfo -1", "playlistinfo 1:x", "prio 256 0", "prio -1 0", "prio 1 99", "prioid 1 99999",
        "prio 1", "add nowhere", "addid nowhere", "addid \"Aurora Lane\"", "add \"Loose/readme.txt\"",
        "add \"Compilations/Summer Hits/01 Sunny.mp3\" 99", "addid \"Compilations/Summer Hits/01 Sunny.mp3\" x",
        "add \"Compilations/Summer Hits/01 Sunny.mp3\" +1", "add /etc/passwd", "add \"file:///etc/passwd\"",
        "add \"{music}/Loose/untagged tone.mp3\"", "plchanges x", "plchanges 0 x", "plchangesposid",
        "playlistfind", "playlistfind artist", "playlistsearch nosuchtag x", "playlistfind \"(artist == \"",
        "shuffle 99:100", "shuffle x", "playlist extra", "clear now",
        "playlistinfo", "status",
    ].map(SideBySideStep.command)

    static let playback: [SideBySideStep] = [
        .command("add \"Aurora Lane/Tides (2021)\""), .command("add \"Brass Parade/Marching On\""),
        .command("next"), .command("previous"), .command("pause"), .command("seekcur 3"), .command("currentsong"),
        .command("play 1"), .waitForPlayback, .command("pause 1"), .command("status"), .command("currentsong"),
        .command("seek 0 10"), .command("status"), .command("currentsong"), .command("seekid {id:2} 5"),
        .command("status"), .command("seekcur 3"), .command("seekcur +1"), .command("seekcur -1"), .command("status"),
        .command("next"), .command("status"), .command("previous"), .command("previous"), .command("status"),
        .command("playid {id:3}"), .waitForPlayback, .command("pause"), .command("status"), .command("currentsong"),
        .command("pause 0"), .waitForPlayback, .command("pause 1"), .command("status"),
        .command("add \"Loose/untagged tone.mp3\" +0"), .command("addid \"Loose/Deep/er/still/Bottom.mp3\" -0"),
        .command("addid \"Compilations/Summer Hits/01 Sunny.mp3\" +2"), .command("move 0 +1"), .command("move 5 -0"),
        .command("playlist"), .command("status"),
        .command("play 99"), .command("playid 99999"), .command("seek 99 1"), .command("seek 0 x"),
        .command("seekid 99999 1"), .command("seekcur x"), .command("play x"), .command("pause 2"),
        .command("play -2"), .command("playid -2"), .command("status"),
        .command("stop"), .command("status"), .command("currentsong"), .command("seekcur 1"), .command("next"),
        .command("play 0"), .waitForPlayback, .command("next"), .waitForPlayback, .command("pause 1"),
        .command("status"), .command("stop"), .command("status"),
    ]

    static let options: [SideBySideStep] = [
        "repeat 1", "single 1", "consume 1", "status", "single oneshot", "status", "single 0", "consume 0", "repeat 0",
        "repeat 2", "repeat x", "single 2", "consume on", "random 1", "random 0", "random x", "status",
        "getvol", "setvol 50", "getvol", "volume +10", "volume -70", "getvol", "volume +200", "getvol", "setvol 101",
        "setvol -1", "setvol abc", "volume x", "setvol 100", "status",
        "crossfade 0", "crossfade 5", "crossfade 0", "crossfade -1", "crossfade x", "status",
        "replay_gain_status", "replay_gain_mode track", "replay_gain_status", "replay_gain_mode album",
        "replay_gain_mode auto", "replay_gain_mode off", "replay_gain_mode loud", "replay_gain_status", "status",
    ].map(SideBySideStep.command)

    /// Random edits from a seed on a queue of seven songs, the first of them current (paused):
    /// every answer compared, then what `plchanges` says changed since before them.
    static let seeded: [SideBySideStep] = [
        .command("clear"), .command("add \"Aurora Lane\""), .command("play 0"), .waitForPlayback, .command("pause 1"),
        .markVersion("seeded"), .seededEdits(seed: 20_231_207, count: 80), .command("playlistinfo"),
        .command("status"), .command("plchanges {version:seeded}"), .command("plchangesposid {version:seeded}"),
        .command("playlistfind \"(prio > 0)\""), .command("stop"),
        // A shuffle's order is each server's own: the songs compared, not their order.
        .unordered("shuffle"), .unordered("playlistinfo"), .unordered("shuffle 1:4"), .unordered("playlistinfo"),
        .command("status"), .command("clear"),
    ]

    static let outputs: [SideBySideStep] = [
        "outputs", "disableoutput 0", "outputs", "enableoutput 0", "toggleoutput 0", "outputs", "toggleoutput 0",
        "enableoutput 5", "disableoutput x", "toggleoutput 99", "outputs",
    ].map(SideBySideStep.command)
}

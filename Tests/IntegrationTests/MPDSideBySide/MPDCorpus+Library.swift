/// Browsing and querying the library: every listing command, the old-style and the expression
/// filters, `group`, `sort` and `window`, counts and tag lists, and their errors.
extension MPDCorpus {
    static let library: [SideBySideStep] = browsing + findAndSearch + expressions + listAndCount + libraryErrors

    static let browsing: [SideBySideStep] = [
        "lsinfo", "lsinfo \"\"", "lsinfo /", "lsinfo \"Aurora Lane\"", "lsinfo \"Aurora Lane/Northern Lights (2019)\"",
        "lsinfo \"Aurora Lane/Tides (2021)/Disc 2\"", "lsinfo Loose", "lsinfo \"Loose/Deep/er/still\"", "lsinfo Playlists",
        "lsinfo \"Compilations/Summer Hits/02 Breeze.mp3\"", "lsinfo \"Aurora Lane/Northern Lights (2019)/03 Solstice.flac\"",
        "listall", "listall Compilations", "listall \"Brass Parade/Marching On/01 Fanfare.mp3\"",
        "listallinfo", "listallinfo \"Aurora Lane/Tides (2021)\"", "listallinfo \"Brass Parade/Marching On/01 Fanfare.mp3\"",
        "listfiles", "listfiles Loose", "listfiles \"Aurora Lane/Northern Lights (2019)\"", "listfiles Playlists",
        "listplaylist \"Playlists/road trip.m3u\"", "listplaylistinfo \"Playlists/road trip.m3u\"",
        "stats", "status",
    ].map(SideBySideStep.command)

    static let findAndSearch: [SideBySideStep] = [
        "find artist \"Aurora Lane\"", "find Artist \"aurora lane\"", "find album \"Northern Lights\"",
        "find albumartist \"Various Artists\"", "find genre Ambient", "find genre Electronic", "find date 2019",
        "find composer \"Sven Dahl\"", "find performer \"Aurora Lane\"", "find conductor \"Otto Horn\"",
        "find comment \"recorded at dawn\"", "find label \"Polar Records\"", "find disc 2", "find track 2",
        "find musicbrainz_albumid 9c3a54d2-1f7e-4a0b-8a5e-2d6f3c1b7e01",
        "find musicbrainz_trackid f1e2d3c4-b5a6-4978-8899-aabbccddeeff",
        "find musicbrainz_artistid 5b0e8f21-7c4d-4e9a-9f12-63a8d0c4b2aa",
        "find artist \"Aurora Lane\" album Tides", "find artist \"Aurora Lane\" album Tides title Flow",
        "find any \"Aurora Lane\"", "find file \"Loose/untagged tone.mp3\"", "find base Compilations",
        "find base \"Aurora Lane/Tides (2021)\" track 1", "find title \"\"", "find artist \"\"", "find album \"\"",
        "find modified-since 2000-01-01T00:00:00Z", "find modified-since 2100-01-01T00:00:00Z",
        "find modified-since 2999-01-01T00:00:00Z", "count modified-since 1000000000", "count modified-since 9999999999",
        "search artist aurora", "search title SUN", "search any lights", "search album \"northern\" artist brass",
        "search file tides", "search any caf", "search comment dawn", "search artist élan", "search artist elan",
        "search base Loose title bottom", "search genre o",
        "find artist \"Aurora Lane\" sort title", "find artist \"Aurora Lane\" sort -title",
        "find albumartist \"Aurora Lane\" sort album", "find genre Pop sort -track", "find genre Pop sort Date",
        "search any a sort artist window 2:5", "search any a sort -Last-Modified window 0:3",
        "find artist \"Aurora Lane\" window 1:3", "find artist \"Aurora Lane\" window 10:20", "search any a window 3:",
        "search any \"\" sort ArtistSort", "search any \"\" sort AlbumArtist",
    ].map(SideBySideStep.command)

    /// (The audio format filters match whole formats or 16 and 24 bits alike: mpd reads MP3 at 24
    /// bits, Aubade at 16, see `KnownDifferences.mp3SampleFormat`.)
    static let expressions: [SideBySideStep] = [
        "find \"(artist == \\\"Aurora Lane\\\")\"", "find \"(artist != \\\"Aurora Lane\\\")\"",
        "find \"(album == \\\"Northern Lights\\\")\" sort -track",
        "find \"((artist == \\\"Aurora Lane\\\") AND (album == \\\"Tides\\\"))\"",
        "find \"(!(genre == \\\"Ambient\\\"))\"", "find \"(genre contains \\\"mbi\\\")\"",
        "find \"(title starts_with \\\"B\\\")\"", "find \"(artist =~ \\\"^Au.*e$\\\")\"", "find \"(artist !~ \\\"a\\\")\"",
        "search \"(title contains \\\"e\\\")\"", "search \"(any contains \\\"aurora\\\")\"",
        "find \"(file == \\\"Loose/untagged tone.mp3\\\")\"", "find \"(base \\\"Brass Parade\\\")\"",
        "find \"(modified-since \\\"2000-01-01T00:00:00Z\\\")\"", "find \"(AudioFormat == \\\"48000:16:2\\\")\"",
        "find \"(AudioFormat =~ \\\"44100:*:2\\\")\"", "find \"(prio >= 0)\"",
        "find \"(artist == \\\"\\\")\"", "find \"(title == \\\"\\\")\"",
        "find \"(artist == 'Aurora Lane')\"", "find \"((artist == \\\"Brass Parade\\\") AND (date >= \\\"2000\\\"))\"",
        "find \"(artist contains_ci \\\"AURORA\\\")\"", "find \"(ALBUMARTIST == \\\"Various Artists\\\")\" sort title window 0:2",
        "findadd \"(artist == \\\"nobody\\\")\"",
    ].map(SideBySideStep.command)

    static let listAndCount: [SideBySideStep] = [
        "list artist", "list albumartist", "list album", "list genre", "list date", "list composer", "list performer",
        "list title", "list track", "list disc", "list comment", "list label", "list conductor", "list artistsort",
        "list musicbrainz_albumid", "list file", "list album artist \"Aurora Lane\"", "list album \"Aurora Lane\"",
        "list album group albumartist", "list album group date", "list title group album group albumartist",
        "list album group artist group genre", "list date \"(genre == \\\"Pop\\\")\"",
        "list title \"(artist == \\\"Aurora Lane\\\")\" group album", "list artist base Compilations",
        "list album albumartist \"Various Artists\"", "list albumartist album \"Northern Lights\" group date",
        "count artist \"Aurora Lane\"", "count album Tides", "count genre Pop", "count \"(artist != \\\"\\\")\"",
        "count group artist", "count group album", "count group genre", "count artist \"Aurora Lane\" group album",
        "count group date", "count base Loose", "count title nothing",
    ].map(SideBySideStep.command)

    static let libraryErrors: [SideBySideStep] = [
        "lsinfo nowhere", "lsinfo \"Aurora Lane/nowhere\"", "listall nowhere", "listallinfo nowhere", "listfiles nowhere",
        "lsinfo ../", "lsinfo \"Aurora Lane/../Brass Parade\"", "lsinfo //", "listfiles ..",
        "find", "find artist", "find nosuchtag x", "find artist x album", "search", "find \"(artist == \\\"x\\\"\"",
        "find \"(artist === \\\"x\\\")\"", "find \"artist == x\"", "find \"(artist =~ \\\"(\\\")\"",
        "find \"((artist == \\\"a\\\") OR (artist == \\\"b\\\"))\"", "find base nowhere", "find \"(base \\\"nowhere\\\")\"",
        "find artist x sort", "find artist x sort nosuchtag", "find artist x window", "find artist x window 5:2",
        "find artist x window abc", "find modified-since yesterday", "find \"(modified-since \\\"soon\\\")\"",
        "find \"(prio >= x)\"", "find \"(AudioFormat == \\\"bad\\\")\"", "find \"(audioformat =~ \\\"44100:*:2\\\")\"",
        "list", "list nosuchtag", "list album group", "list album group nosuchtag", "list file group album",
        "list album artist", "list album \"(\"", "count", "count group", "count artist", "count group nosuchtag",
        "list Title \"x\"", "list any",
    ].map(SideBySideStep.command)
}

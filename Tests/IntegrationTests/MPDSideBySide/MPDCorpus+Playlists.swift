/// Stored playlists: listing, loading (whole, a range, at a position), saving, editing
/// (`playlistadd` at the end and at a position, `playlistdelete`, `playlistmove`,
/// `playlistclear`), `rename`, `rm`, a playlist file of the music folder, and their errors.
extension MPDCorpus {
    static let playlists: [SideBySideStep] = [
        "listplaylists", "listplaylist favourites", "listplaylistinfo favourites",
        "load favourites", "playlist", "clear", "load favourites 1:3", "playlist", "load favourites 0:1 0", "playlist",
        "load favourites 2:", "load favourites 3:4 1", "load favourites 0:1 +0", "playlist", "status",
        "save mine", "listplaylists", "listplaylist mine", "listplaylistinfo mine", "save mine",
        "playlistadd mine \"Loose/untagged tone.mp3\"", "playlistadd mine Compilations", "listplaylist mine",
        "playlistadd mine \"Aurora Lane/Tides (2021)/Disc 1/01 Ebb.mp3\" 0", "playlistadd mine \"Loose/Deep\" 2",
        "listplaylist mine", "playlistdelete mine 0", "playlistdelete mine 2:4", "listplaylist mine",
        "playlistmove mine 0 2", "playlistmove mine 1:3 0", "listplaylist mine",
        "playlistadd fresh \"Brass Parade/Marching On/02 Encore.mp3\"", "listplaylist fresh", "listplaylists",
        "playlistclear mine", "listplaylist mine", "listplaylistinfo mine", "rename mine yours", "listplaylists",
        "rename yours favourites", "rename nowhere other", "rename yours \"bad/name\"", "rm yours", "rm yours",
        "rm fresh", "listplaylists",
        "listplaylist nowhere", "listplaylistinfo nowhere", "load nowhere", "load favourites 9:10", "load favourites x",
        "load favourites 0:1 99", "save \"bad/name\"", "save \"\"", "save \".hidden\"", "rm \".hidden\"", "playlistadd mine nowhere",
        "playlistadd \"bad/name\" \"Loose/untagged tone.mp3\"", "playlistadd favourites \"Loose/untagged tone.mp3\" 99",
        "playlistdelete favourites 99", "playlistdelete nowhere 0", "playlistdelete favourites x",
        "playlistmove favourites 0 99", "playlistmove favourites 99 0", "playlistmove nowhere 0 1",
        "playlistclear nowhere", "listplaylist favourites",
        "listplaylist \"Playlists/road trip.m3u\"", "listplaylistinfo \"Playlists/road trip.m3u\"",
        "clear", "load \"Playlists/road trip.m3u\"", "playlist", "listplaylist \"Playlists/nowhere.m3u\"",
        "playlistadd \"Playlists/road trip.m3u\" \"Loose/untagged tone.mp3\"", "rm \"Playlists/road trip.m3u\"",
        "clear", "listplaylists",
    ].map(SideBySideStep.command)
}

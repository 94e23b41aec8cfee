internal import DBusKit

/// The properties of `org.mpris.MediaPlayer2`: what Aubade is. None of them ever changes.
enum RootProperties {
    static let identity = "Aubade"
    static let desktopEntry = "aubade"
    static let uriSchemes = ["file", "http", "https"]
    /// What OpenUri takes: the formats Aubade decodes (MP3, FLAC, Ogg Vorbis, Ogg Opus) and
    /// the playlists it reads (M3U/M3U8, and a station's PLS), by their common names.
    static let mimeTypes = ["audio/mpeg", "audio/mp3", "audio/x-mp3", "audio/x-mpeg", "audio/mpeg3",
                            "audio/flac", "audio/x-flac",
                            "audio/ogg", "application/ogg", "audio/vorbis", "audio/x-vorbis+ogg",
                            "audio/opus", "audio/x-opus+ogg",
                            "audio/x-mpegurl", "audio/mpegurl", "audio/x-scpls"]

    static let all: [(String, DBusValue)] = [
        ("CanQuit", .boolean(true)),
        ("CanRaise", .boolean(false)),
        ("HasTrackList", .boolean(true)),
        ("Identity", .string(identity)),
        ("DesktopEntry", .string(desktopEntry)),
        ("SupportedUriSchemes", .stringArray(uriSchemes)),
        ("SupportedMimeTypes", .stringArray(mimeTypes)),
    ]

    static func value(named name: String) -> DBusValue? {
        all.first { $0.0 == name }?.1
    }
}

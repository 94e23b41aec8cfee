/// The names MPRIS 2.2 fixes on the wire.
public enum MPRISNames {
    public static let busName = "org.mpris.MediaPlayer2.aubade"
    public static let objectPath = "/org/mpris/MediaPlayer2"
    public static let rootInterface = "org.mpris.MediaPlayer2"
    public static let playerInterface = "org.mpris.MediaPlayer2.Player"
    public static let trackListInterface = "org.mpris.MediaPlayer2.TrackList"
    public static let playlistsInterface = "org.mpris.MediaPlayer2.Playlists"
    public static let propertiesInterface = "org.freedesktop.DBus.Properties"
    public static let introspectableInterface = "org.freedesktop.DBus.Introspectable"

    /// The bus name a second instance takes: MPRIS allows `.instance<pid>` suffixes.
    public static func instanceBusName(pid: Int32) -> String { "\(busName).instance\(pid)" }
}

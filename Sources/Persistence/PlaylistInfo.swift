import FoundationEssentials
import PlayerCore

/// One playlist file in the playlists folder, as `PlaylistFolder.list` reports it.
public struct PlaylistInfo: Sendable, Equatable, Hashable {
    /// Stable as long as the file keeps its name (see `PlaylistInfo.id(forFileName:)`); made
    /// only of `[A-Za-z0-9_]`, so it can be the last element of a D-Bus object path.
    public var id: String
    /// The file name without its extension, as shown to the user (a name that is not UTF-8
    /// read as Latin-1/Windows-1252, see `FilePath.displayString`).
    public var name: String
    /// Absolute path of the playlist file, as bytes.
    public var path: FilePath
    /// Last modification of the file.
    public var modified: Date
    /// When the file was created: its birth time where the file system records one (statx),
    /// else its inode change time (which also moves when the file is rewritten or renamed).
    public var created: Date

    public init(id: String, name: String, path: FilePath, modified: Date, created: Date) {
        self.id = id
        self.name = name
        self.path = path
        self.modified = modified
        self.created = created
    }

    /// The id of the playlist file `fileName`: letters and digits as they are, every other
    /// byte of the name (including "_") as `_XX` in hex. Unique per file name,
    /// reversible, readable for plain names ("Road Trip.m3u8" → "Road_20Trip_2Em3u8").
    public static func id(forFileName fileName: String) -> String {
        id(forFileNameBytes: fileName.utf8)
    }

    /// The same for a name that is bytes (`caf\xE9.m3u` → "caf_E9_2Em3u").
    public static func id(forFileName fileName: FilePath) -> String {
        id(forFileNameBytes: fileName.bytes)
    }

    private static func id(forFileNameBytes bytes: some Sequence<UInt8>) -> String {
        var id = ""
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                id.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                id += "_" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return id
    }
}

/// The orders MPRIS asks playlists in; the raw values are the wire strings of
/// `org.mpris.MediaPlayer2.Playlists` (Playlist_Ordering).
public enum PlaylistOrdering: String, Sendable, CaseIterable {
    /// By name, ignoring case.
    case alphabetical = "Alphabetical"
    case creationDate = "Created"
    case modifiedDate = "Modified"
    /// Aubade has no separate user order: it is the order the playlists were created in
    /// (so a new playlist comes last), the same as `creationDate`.
    case userDefined = "User"

    /// Whether `a` comes before `b`; ties go by name, then path, so the order is total.
    func areInIncreasingOrder(_ a: PlaylistInfo, _ b: PlaylistInfo) -> Bool {
        switch self {
        case .alphabetical: break
        case .creationDate, .userDefined:
            if a.created != b.created { return a.created < b.created }
        case .modifiedDate:
            if a.modified != b.modified { return a.modified < b.modified }
        }
        let (x, y) = (a.name.lowercased(), b.name.lowercased())
        if x != y { return x < y }
        return FilePath.bytewiseLess(a.path, b.path)
    }
}

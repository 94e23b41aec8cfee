/// What a client may do: mpd's permission bits, by mpd's names (`read`, `add`, `player`,
/// `control`, `admin`), as `password "secret@read,add"` and `default_permissions` grant them.
public struct MPDPermissions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Read the library, the queue and the status.
    public static let read = MPDPermissions(rawValue: 1)
    /// Add songs to the queue.
    public static let add = MPDPermissions(rawValue: 2)
    /// Edit stored playlists, update the library (and, since mpd 0.22 configurations name it so,
    /// everything `player` allows).
    public static let control = MPDPermissions(rawValue: 4)
    /// Outputs, `kill`.
    public static let admin = MPDPermissions(rawValue: 8)
    /// Play, pause, seek, edit the queue, the options and the volume.
    public static let player = MPDPermissions(rawValue: 16)

    /// mpd's default without passwords: everything.
    public static let all: MPDPermissions = [.read, .add, .control, .admin, .player]

    /// The names mpd's configuration accepts, in mpd's order.
    public static let names: [(name: String, permission: MPDPermissions)] = [
        ("read", .read), ("add", .add), ("player", .player), ("control", .control), ("admin", .admin),
    ]

    /// A comma-separated list as mpd's `parsePermissions` reads it: names are exact (no
    /// white space, case matters), empty items are skipped, and `control` brings `player` with
    /// it, as in mpd 0.22 and older where `control` covered playback.
    public init(parsing text: some StringProtocol) throws(UnknownPermission) {
        var permissions: MPDPermissions = []
        for item in text.split(separator: ",", omittingEmptySubsequences: true) {
            guard let entry = Self.names.first(where: { $0.name == item }) else {
                throw UnknownPermission(name: String(item))
            }
            permissions.insert(entry.permission)
        }
        if permissions.contains(.control) { permissions.insert(.player) }
        self = permissions
    }

    /// A name `MPDPermissions(parsing:)` does not know: a configuration error, worded as mpd's.
    public struct UnknownPermission: Error, Sendable, Hashable, CustomStringConvertible {
        public let name: String
        public var description: String { "unknown permission \"\(name)\"" }
    }
}

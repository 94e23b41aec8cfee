/// What changed, for `idle` (mpd's `IdleFlags`): the client waits for any of a set, mpd answers
/// `changed: NAME` for each that happened, in this order.
public struct IdleSubsystems: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let database = IdleSubsystems(rawValue: 1 << 0)
    public static let storedPlaylist = IdleSubsystems(rawValue: 1 << 1)
    public static let playlist = IdleSubsystems(rawValue: 1 << 2)
    public static let player = IdleSubsystems(rawValue: 1 << 3)
    public static let mixer = IdleSubsystems(rawValue: 1 << 4)
    public static let output = IdleSubsystems(rawValue: 1 << 5)
    public static let options = IdleSubsystems(rawValue: 1 << 6)
    public static let sticker = IdleSubsystems(rawValue: 1 << 7)
    public static let update = IdleSubsystems(rawValue: 1 << 8)
    public static let subscription = IdleSubsystems(rawValue: 1 << 9)
    public static let message = IdleSubsystems(rawValue: 1 << 10)
    public static let neighbor = IdleSubsystems(rawValue: 1 << 11)
    public static let mount = IdleSubsystems(rawValue: 1 << 12)
    public static let partition = IdleSubsystems(rawValue: 1 << 13)

    /// Every subsystem (`idle` without arguments).
    public static let all = IdleSubsystems(rawValue: (1 << 14) - 1)

    /// mpd's names, in mpd's order (the order of the `changed:` lines).
    public static let names: [(name: String, subsystem: IdleSubsystems)] = [
        ("database", .database), ("stored_playlist", .storedPlaylist), ("playlist", .playlist),
        ("player", .player), ("mixer", .mixer), ("output", .output), ("options", .options),
        ("sticker", .sticker), ("update", .update), ("subscription", .subscription),
        ("message", .message), ("neighbor", .neighbor), ("mount", .mount), ("partition", .partition),
    ]

    /// A subsystem by name, case-insensitively (ASCII) as mpd's `idle_parse_name`.
    public init?(name: String) {
        guard let entry = Self.names.first(where: { ASCII.equalsIgnoringCase($0.name, name) }) else { return nil }
        self = entry.subsystem
    }

    /// The names of the subsystems in this set, in mpd's order.
    public var names: [String] {
        Self.names.filter { contains($0.subsystem) }.map(\.name)
    }
}

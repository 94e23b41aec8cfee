/// Which MPRIS player a playback stream belongs to, and how that was told.
///
/// Only evidence counts: the stream's process (or a parent of it) owns the player's bus name,
/// or the stream names the player's program or Flatpak app. A stream none of these tie to a
/// player has no owner, and the guard leaves it alone — it never pauses "everything" by guess.
public struct StreamOwner: Sendable, Equatable {
    public enum Match: String, Sendable {
        /// The stream's own process owns the player's name.
        case process
        /// A parent of the stream's process owns it (browsers, Electron, a player's helper).
        case ancestor
        /// The stream's binary or application name is the player's DesktopEntry or Identity.
        case name
        /// The stream's Flatpak app id is the player's DesktopEntry.
        case appID = "appId"
    }

    public var player: String
    public var match: Match

    public init(player: String, match: Match) {
        self.player = player
        self.match = match
    }

    /// The owner of `stream` among `players`, if any evidence ties it to one.
    ///
    /// The nearest process wins (a player started from another player's terminal belongs to
    /// itself, not to the parent); two names of one process (Chromium's instances) are told
    /// apart by which one plays, then by name, so the answer never depends on dictionary order.
    public static func find(for stream: PlaybackStreamFacts, among players: [String: OtherPlayer]) -> StreamOwner? {
        let sorted = players.values.sorted { ($0.status == .playing ? 0 : 1, $0.name) < ($1.status == .playing ? 0 : 1, $1.name) }
        for (depth, pid) in stream.processChain.enumerated() where pid > 1 {
            if let player = sorted.first(where: { $0.processID == pid }) {
                return StreamOwner(player: player.name, match: depth == 0 ? .process : .ancestor)
            }
        }
        if let appID = stream.appID.flatMap(Self.normalized),
           let player = sorted.first(where: { $0.desktopEntry.flatMap(Self.normalized) == appID }) {
            return StreamOwner(player: player.name, match: .appID)
        }
        let streamNames = Set([stream.processBinary, stream.applicationName].compactMap { $0.flatMap(Self.normalized) })
        guard !streamNames.isEmpty else { return nil }
        if let player = sorted.first(where: { !streamNames.isDisjoint(with: Self.names(of: $0)) }) {
            return StreamOwner(player: player.name, match: .name)
        }
        return nil
    }

    /// What a player may be called in a stream: its DesktopEntry, its Identity, and the first
    /// part of its bus name after `org.mpris.MediaPlayer2.` (`vlc`, `chromium` of
    /// `chromium.instance42`).
    static func names(of player: OtherPlayer) -> Set<String> {
        var names = Set([player.desktopEntry, player.identity].compactMap { $0.flatMap(normalized) })
        let prefix = "org.mpris.MediaPlayer2."
        if player.name.hasPrefix(prefix),
           let first = player.name.dropFirst(prefix.count).split(separator: ".").first.flatMap({ normalized(String($0)) }) {
            names.insert(first)
        }
        return names
    }

    /// Case-folded, without a path or ".desktop"; nil when nothing meaningful is left.
    static func normalized(_ text: String) -> String? {
        var name = text.lowercased()
        if let slash = name.lastIndex(of: "/") { name = String(name[name.index(after: slash)...]) }
        if name.hasSuffix(".desktop") { name.removeLast(".desktop".count) }
        name = name.trimmingCharacters(in: " ")
        return name.isEmpty ? nil : name
    }
}

private extension String {
    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text.removeFirst() }
        while text.last == set { text.removeLast() }
        return String(text)
    }
}

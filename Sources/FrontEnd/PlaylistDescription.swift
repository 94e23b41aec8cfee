/// A saved playlist (a file of the playlists folder) as front-ends show it: MPRIS Playlists,
/// MPD stored playlists.
public struct PlaylistDescription: Sendable, Equatable {
    /// The playlist's object path (`/org/aubade/Playlist/…`).
    public var objectPath: String
    public var name: String
    /// An icon URI, or "" (MPRIS: empty when there is none).
    public var icon: String
    /// Seconds since 1970, for the ModifiedDate and CreationDate orderings.
    public var modified: Int64
    public var created: Int64
    /// Position in the user's own order.
    public var userOrder: Int

    public init(objectPath: String, name: String, icon: String = "", modified: Int64, created: Int64, userOrder: Int) {
        self.objectPath = objectPath
        self.name = name
        self.icon = icon
        self.modified = modified
        self.created = created
        self.userOrder = userOrder
    }
}

/// One ID3v2 UFID frame ("unique file identifier"): an owner naming the database, usually a
/// URL, and up to 64 bytes that identify the recording there. MusicBrainz Picard writes the
/// recording id under "http://musicbrainz.org".
///
/// libmpg123 does not parse UFID frames; they come from the raw tag (`Mpg123Flags.rawID3`).
public struct ID3UniqueFileID: Sendable, Equatable {
    public var owner: String
    /// The identifier's bytes as stored (MusicBrainz: the id's ASCII text).
    public var identifier: [UInt8]

    public init(owner: String, identifier: [UInt8]) {
        self.owner = owner
        self.identifier = identifier
    }

    /// The MusicBrainz owner: its identifier is the recording id.
    public static let musicBrainzOwner = "http://musicbrainz.org"
}

public import PlayerCore

extension TagKind {
    /// The tag types in mpd's own order (its `TagType` enum): the order of `tagtypes`.
    public static let mpdOrder: [TagKind] = [
        .artist, .artistSort, .album, .albumSort, .albumArtist, .albumArtistSort, .title, .track,
        .name, .genre, .date, .originalDate, .composer, .composerSort, .performer, .conductor,
        .work, .movement, .movementNumber, .ensemble, .location, .grouping, .comment, .disc,
        .label, .musicBrainzArtistID, .musicBrainzAlbumID, .musicBrainzAlbumArtistID,
        .musicBrainzTrackID, .musicBrainzReleaseTrackID, .musicBrainzWorkID,
    ]

    /// A tag type by mpd's name, ASCII-case-insensitively (mpd's `tag_name_parse_i`).
    init?(mpdName name: some StringProtocol) {
        guard let kind = TagKind.mpdOrder.first(where: { ASCII.equalsIgnoringCase($0.rawValue, name) }) else { return nil }
        self = kind
    }
}

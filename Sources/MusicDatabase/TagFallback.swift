public import PlayerCore

/// mpd's tag fallbacks (src/tag/Fallback.hxx, Tag::GetSortValue): what stands in for a tag a
/// song lacks.
extension TagKind {
    /// For filters and `list`/`count` (ApplyTagFallback): the kinds tried, in order, when the
    /// song has no value of this kind. AlbumArtistSort tries AlbumArtist, then Artist (not
    /// ArtistSort: mpd 0.23 skips it).
    public var fallbacks: [TagKind] {
        switch self {
        case .albumArtist, .artistSort: return [.artist]
        case .albumSort: return [.album]
        case .albumArtistSort: return [.albumArtist, .artist]
        default: return []
        }
    }

    /// For `sort` in find/search (Tag::GetSortValue): the kinds whose first value is the sort
    /// value, this one first; a song with none sorts as "".
    var sortChain: [TagKind] {
        switch self {
        case .artistSort: return [.artistSort, .artist]
        case .albumSort: return [.albumSort, .album]
        case .albumArtistSort: return [.albumArtistSort, .albumArtist, .artist]
        case .albumArtist: return [.albumArtist, .artist]
        case .musicBrainzAlbumArtistID: return [.musicBrainzAlbumArtistID, .musicBrainzArtistID]
        default: return [self]
        }
    }
}

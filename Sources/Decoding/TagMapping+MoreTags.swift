import Mpg123Kit
import PlayerCore

extension TagMapping {
    /// ID3v2 text frames and the kind each holds, as mpd 0.23 reads them (its Id3Scan.cxx),
    /// TPE4 ("remixed by") as Performer included: clients compare our answers with mpd's.
    /// TSOC (composer sort) is ours; mpd 0.23 does not read it.
    static let moreTagFrames: [(id: String, kind: TagKind)] = [
        ("TSOP", .artistSort), ("TSOA", .albumSort), ("TSO2", .albumArtistSort), ("TSOC", .composerSort),
        ("TDOR", .originalDate), ("TCOM", .composer), ("TPE3", .conductor), ("TPE4", .performer),
        ("TIT1", .grouping), ("TPUB", .label),
    ]

    /// TXXX descriptions and their kinds (mpd's Id3MusicBrainz.cxx; compared without case).
    static let moreTagUserTexts: [(description: String, kind: TagKind)] = [
        ("ALBUMARTISTSORT", .albumArtistSort),
        ("MusicBrainz Artist Id", .musicBrainzArtistID),
        ("MusicBrainz Album Id", .musicBrainzAlbumID),
        ("MusicBrainz Album Artist Id", .musicBrainzAlbumArtistID),
        ("MusicBrainz Track Id", .musicBrainzTrackID),
        ("MusicBrainz Release Track Id", .musicBrainzReleaseTrackID),
        ("MusicBrainz Work Id", .musicBrainzWorkID),
    ]

    /// Every tag of `tags` without a `Track` field of its own, in `TagKind` order.
    ///
    /// Comments: every COMM frame but iTunes' own ("iTunNORM", "iTunSMPB"…: loudness and
    /// gapless numbers stored as comments, which mpd shows as if someone wrote them), else the
    /// ID3v1 comment. The MusicBrainz recording id: a TXXX "MusicBrainz Track Id" or the UFID
    /// frame of "http://musicbrainz.org".
    static func moreTags(_ tags: ID3Tags) -> [TagValue] {
        var more = MoreTags()
        for (id, kind) in moreTagFrames {
            for value in tags.values(of: id) { more.add(kind, value) }
        }
        // ID3v2.3 has only the original release year (TORY); v2.4 replaced it with TDOR.
        if !more.has(.originalDate) {
            for value in tags.values(of: "TORY") { more.add(.originalDate, value) }
        }
        for comment in tags.comments where !comment.description.hasPrefix("iTun") {
            more.add(.comment, comment.text)
        }
        if !more.has(.comment), let comment = tags.version1?.comment {
            more.add(.comment, comment)
        }
        for (description, kind) in moreTagUserTexts {
            for value in tags.userTexts(description) { more.add(kind, value) }
        }
        for id in tags.uniqueFileIDs where id.owner == ID3UniqueFileID.musicBrainzOwner {
            more.add(.musicBrainzTrackID, String(decoding: id.identifier, as: UTF8.self))
        }
        return more.values
    }
}

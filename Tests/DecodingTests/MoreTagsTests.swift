import FFmpegWire
import Mpg123Kit
import Testing
@testable import Decoding
import PlayerCore

/// `Track.moreTags` from each format's tag names, as mpd 0.23 maps them, and the caps every
/// format shares (the tags are the file's: hostile).
@Suite struct MoreTagsTests {
    // MARK: ID3v2

    @Test func id3FramesMapAsMPDMapsThemInKindOrder() {
        let tags = ID3Tags(
            textFrames: [
                ID3TextFrame(id: "TPUB", values: ["Label Co"]),
                ID3TextFrame(id: "TCOM", values: ["Bach", "Handel"]),
                ID3TextFrame(id: "TSOP", values: ["Ann, The"]),
                ID3TextFrame(id: "TSOA", values: ["Album, The"]),
                ID3TextFrame(id: "TSO2", values: ["Various, The"]),
                ID3TextFrame(id: "TSOC", values: ["Bach, J.S."]),
                ID3TextFrame(id: "TDOR", values: ["1999-01-02"]),
                ID3TextFrame(id: "TORY", values: ["1998"]),
                ID3TextFrame(id: "TPE3", values: ["Karajan"]),
                ID3TextFrame(id: "TPE4", values: ["Remixer"]),
                ID3TextFrame(id: "TIT1", values: ["Baroque"]),
                ID3TextFrame(id: "TIT2", values: ["Title"]),
            ],
            version1: ID3v1Tag(title: "", artist: "", album: "", year: "", comment: "v1 comment", trackNumber: nil, genreIndex: nil),
            userTexts: [
                ID3UserText(description: "MusicBrainz Work Id", values: ["w-1"]),
                ID3UserText(description: "musicbrainz album id", values: ["alb-1"]),
                ID3UserText(description: "MusicBrainz Artist Id", values: ["art-1", "art-2"]),
                ID3UserText(description: "MusicBrainz Album Artist Id", values: ["aa-1"]),
                ID3UserText(description: "MusicBrainz Release Track Id", values: ["rt-1"]),
                ID3UserText(description: "MusicBrainz Track Id", values: ["rec-1"]),
                ID3UserText(description: "REPLAYGAIN_TRACK_GAIN", values: ["-6 dB"]),
            ],
            comments: [
                ID3Comment(language: "eng", description: "", text: "A comment"),
                ID3Comment(language: "eng", description: "iTunNORM", text: " 0000021C 00000215"),
                ID3Comment(language: "deu", description: "liner", text: "Ein Kommentar"),
            ],
            uniqueFileIDs: [
                ID3UniqueFileID(owner: "http://musicbrainz.org", identifier: Array("rec-1".utf8)),
                ID3UniqueFileID(owner: "http://www.cddb.com/id3/taginfo1.html", identifier: Array("x".utf8)),
            ])
        let track = TagMapping.track(path: "/m/x.mp3", tags: tags)
        #expect(track.moreTags == [
            TagValue(.artistSort, "Ann, The"), TagValue(.albumSort, "Album, The"), TagValue(.albumArtistSort, "Various, The"),
            TagValue(.originalDate, "1999-01-02"), TagValue(.composer, "Bach"), TagValue(.composer, "Handel"),
            TagValue(.composerSort, "Bach, J.S."), TagValue(.conductor, "Karajan"), TagValue(.performer, "Remixer"),
            TagValue(.grouping, "Baroque"), TagValue(.comment, "A comment"), TagValue(.comment, "Ein Kommentar"),
            TagValue(.label, "Label Co"),
            TagValue(.musicBrainzArtistID, "art-1"), TagValue(.musicBrainzArtistID, "art-2"),
            TagValue(.musicBrainzAlbumID, "alb-1"), TagValue(.musicBrainzAlbumArtistID, "aa-1"),
            // The TXXX and the UFID agree: one value.
            TagValue(.musicBrainzTrackID, "rec-1"), TagValue(.musicBrainzReleaseTrackID, "rt-1"),
            TagValue(.musicBrainzWorkID, "w-1"),
        ])
        #expect(track.values(of: .composer) == ["Bach", "Handel"])
        #expect(track.title == "Title")
    }

    @Test func id3v23FallsBackToTORYAndTheID3v1Comment() {
        let tags = ID3Tags(
            textFrames: [ID3TextFrame(id: "TORY", values: ["1998"])],
            version1: ID3v1Tag(title: "", artist: "", album: "", year: "", comment: "v1 comment", trackNumber: nil, genreIndex: nil),
            uniqueFileIDs: [ID3UniqueFileID(owner: "http://musicbrainz.org", identifier: Array("rec-9".utf8))])
        #expect(TagMapping.moreTags(tags) == [
            TagValue(.originalDate, "1998"), TagValue(.comment, "v1 comment"), TagValue(.musicBrainzTrackID, "rec-9"),
        ])
        // Only iTunes' own comments: they are not comments, and the v1 one stands in.
        let itunes = ID3Tags(comments: [ID3Comment(language: "eng", description: "iTunSMPB", text: "00000000 00000210")])
        #expect(TagMapping.moreTags(itunes).isEmpty)
    }

    // MARK: Vorbis comments

    @Test func vorbisCommentsTakeMPDNamesAndTheXiphAliases() {
        let comments: [(key: String, value: String)] = [
            ("TITLE", "T"), ("ARTIST", "A"), ("composer", "Bach"), ("DESCRIPTION", "desc comment"), ("COMMENT", "a comment"),
            ("MOVEMENT", "3"), ("MOVEMENTNAME", "Allegro"), ("MOVEMENTNUMBER", "4"), ("ARTISTSORT", "Ann, The"),
            ("ALBUMARTISTSORT", "Various, The"), ("ORIGINALDATE", "1999"), ("MUSICBRAINZ_TRACKID", "rec-1"),
            ("MUSICBRAINZ_ALBUMID", "alb-1"), ("LABEL", "Lbl"), ("WORK", "The Work"), ("CONDUCTOR", "Karajan"),
            ("PERFORMER", "Perf"), ("GROUPING", "G"), ("NAME", "Nm"), ("ENSEMBLE", "Ens"), ("LOCATION", "Loc"),
            ("COMPOSERSORT", "Bach, J.S."), ("LYRICS", "not a kind"), ("REPLAYGAIN_TRACK_GAIN", "-6 dB"),
        ]
        let track = VorbisCommentMapping.track(path: "/m/x.flac", comments: comments)
        #expect(track.moreTags == [
            TagValue(.artistSort, "Ann, The"), TagValue(.albumArtistSort, "Various, The"), TagValue(.name, "Nm"),
            TagValue(.originalDate, "1999"), TagValue(.composer, "Bach"), TagValue(.composerSort, "Bach, J.S."),
            TagValue(.conductor, "Karajan"), TagValue(.performer, "Perf"), TagValue(.work, "The Work"),
            TagValue(.movement, "Allegro"), TagValue(.movementNumber, "3"), TagValue(.movementNumber, "4"),
            TagValue(.ensemble, "Ens"), TagValue(.location, "Loc"), TagValue(.grouping, "G"),
            TagValue(.comment, "desc comment"), TagValue(.comment, "a comment"), TagValue(.label, "Lbl"),
            TagValue(.musicBrainzAlbumID, "alb-1"), TagValue(.musicBrainzTrackID, "rec-1"),
        ])
        #expect(track.title == "T")
        #expect(track.artists == ["A"])
        #expect(track.replayGain?.trackGain == -6)
    }

    // MARK: MP4 (FFmpeg's names)

    @Test func ffmpegNamesMapAsMPDMapsThem() {
        let facts = TrackFacts(codecName: "aac", sampleRate: 44_100, channels: 2, lengthMicroseconds: 1_000_000,
                               lengthIsEstimate: false, hasCover: false, tags: [
            .init("major_brand", "M4A "), .init("composer", "Bach"), .init("encoder", "Lavf59"), .init("LABEL", "Lbl"),
            .init("MusicBrainz Work Id", "w-1"), .init("CONDUCTOR", "Cond"), .init("PERFORMER", "Perf"),
            .init("MusicBrainz Album Artist Id", "aa-1"), .init("MusicBrainz Release Track Id", "rt-1"),
            .init("MusicBrainz Album Id", "alb-1"), .init("MusicBrainz Track Id", "rec-1"), .init("ORIGINALDATE", "1999-01-02"),
            .init("MusicBrainz Artist Id", "art-1"), .init("grouping", "G1"), .init("sort_album_artist", "AAS"),
            .init("sort_artist", "ArtS"), .init("comment", "nice"), .init("sort_album", "AlbumS"),
            .init("sort_composer", "ComposerS"), .init("description", "not a comment for mpd"), .init("title", "T"),
        ])
        let track = MP4TagMapping.track(path: "/m/x.m4a", facts: facts)
        #expect(track.moreTags == [
            TagValue(.artistSort, "ArtS"), TagValue(.albumSort, "AlbumS"), TagValue(.albumArtistSort, "AAS"),
            TagValue(.originalDate, "1999-01-02"), TagValue(.composer, "Bach"), TagValue(.composerSort, "ComposerS"),
            TagValue(.conductor, "Cond"), TagValue(.performer, "Perf"), TagValue(.grouping, "G1"), TagValue(.comment, "nice"),
            TagValue(.label, "Lbl"), TagValue(.musicBrainzArtistID, "art-1"), TagValue(.musicBrainzAlbumID, "alb-1"),
            TagValue(.musicBrainzAlbumArtistID, "aa-1"), TagValue(.musicBrainzTrackID, "rec-1"),
            TagValue(.musicBrainzReleaseTrackID, "rt-1"), TagValue(.musicBrainzWorkID, "w-1"),
        ])
        #expect(track.title == "T")
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 44_100, bitsPerSample: nil, channels: 2))
    }

    @Test func alacHasItsStoredBitsAndNoneUntold() {
        func format(_ codec: String, bits: Int?) -> AudioFormatFacts? {
            MP4TagMapping.audioFormat(TrackFacts(codecName: codec, sampleRate: 48_000, channels: 2, lengthMicroseconds: nil,
                                                 lengthIsEstimate: false, hasCover: false, tags: [], bitsPerSample: bits))
        }
        #expect(format("alac", bits: 24) == AudioFormatFacts(sampleRate: 48_000, bitsPerSample: 24, channels: 2))
        #expect(format("alac", bits: nil) == nil)
        #expect(format("alac", bits: 200) == nil)
        // AAC's container says 16: a placeholder, the codec is float.
        #expect(format("aac", bits: 16) == AudioFormatFacts(sampleRate: 48_000, bitsPerSample: nil, channels: 2))
    }

    // MARK: Caps

    @Test func controlCharactersBecomeSpacesAndEmptyValuesGo() {
        let track = VorbisCommentMapping.track(path: "/m/x.ogg", comments: [
            ("COMPOSER", "  Bach\u{0}\u{7}Jr\n"), ("COMMENT", "line one\r\nline two\u{7F}"), ("COMMENT", " \t\n "),
            ("LABEL", "\u{85}Lbl\u{9F}"), ("CONDUCTOR", ""),
        ])
        #expect(track.moreTags == [
            TagValue(.composer, "Bach  Jr"), TagValue(.comment, "line one  line two"), TagValue(.label, "Lbl"),
        ])
    }

    @Test func aMegabyteCommentIsCut() {
        let huge = String(repeating: "x", count: 1 << 20)
        let track = VorbisCommentMapping.track(path: "/m/x.flac", comments: [("COMMENT", huge)])
        #expect(track.moreTags.map(\.value.unicodeScalars.count) == [VorbisCommentMapping.valueLimit])
        // One character of a megabyte of combining marks is cut by its scalars.
        let zalgo = "e" + String(repeating: "\u{301}", count: 1 << 20)
        #expect(MoreTags.clean(zalgo)?.unicodeScalars.count == VorbisCommentMapping.valueLimit)
        let id3 = TagMapping.moreTags(ID3Tags(comments: [ID3Comment(language: "eng", description: "", text: huge)]))
        #expect(id3.map(\.value.unicodeScalars.count) == [VorbisCommentMapping.valueLimit])
    }

    @Test func tenThousandComposersAndCommentsStayBounded() {
        let composers = (0..<10_000).map { (key: "COMPOSER", value: "Composer \($0)") }
        let same = (0..<10_000).map { _ in (key: "COMMENT", value: "again") }
        let vorbis = VorbisCommentMapping.track(path: "/m/x.flac", comments: composers + same)
        // Only the first `commentLimit` comments are looked at, a kind keeps `listLimit`.
        #expect(vorbis.values(of: .composer).count == VorbisCommentMapping.listLimit)
        #expect(vorbis.values(of: .composer).first == "Composer 0")
        #expect(vorbis.values(of: .comment).isEmpty)
        #expect(VorbisCommentMapping.track(path: "/m/x.flac", comments: same).values(of: .comment) == ["again"])

        let id3 = ID3Tags(textFrames: [ID3TextFrame(id: "TCOM", values: (0..<10_000).map { "Composer \($0)" })],
                          comments: (0..<10_000).map { _ in ID3Comment(language: "eng", description: "", text: "again") })
        let more = TagMapping.moreTags(id3)
        #expect(more.filter { $0.kind == .composer }.count == VorbisCommentMapping.listLimit)
        #expect(more.filter { $0.kind == .comment } == [TagValue(.comment, "again")])

        let facts = TrackFacts(codecName: "aac", sampleRate: 44_100, channels: 2, lengthMicroseconds: nil, lengthIsEstimate: false,
                               hasCover: false, tags: (0..<10_000).map { .init("composer", "Composer \($0)") })
        #expect(MP4TagMapping.track(path: "/m/x.m4a", facts: facts).values(of: .composer).count == VorbisCommentMapping.listLimit)
    }
}

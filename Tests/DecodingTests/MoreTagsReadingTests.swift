import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// Real files of every format, tagged by the tools taggers use (a hand-built ID3v2 tag, flac,
/// oggenc, opusenc, ffmpeg and mutagen), read back: `moreTags` in `TagKind` order, as mpd 0.23
/// lists them, and `audioFormat`. Hostile tags stay within the caps.
@Suite struct MoreTagsReadingTests {
    let directory: String

    init() throws {
        directory = try Fixtures.makeDirectory()
    }

    private func path(_ name: String) -> String { directory + "/" + name }

    private static let recording = "9e3a5f3c-0000-4000-8000-000000000001"

    /// An MP3 of `seconds` with `tag` in front of its audio.
    private func mp3(_ name: String, tag: [UInt8], rate: Int = 44100, channels: Int = 2) throws -> FilePath {
        let audio = path(name + ".audio.mp3")
        try Fixtures.makeMP3(at: audio, seconds: 1, rate: rate, channels: channels)
        try Fixtures.write(tag + Fixtures.contents(of: audio), to: path(name))
        return FilePath(path(name))!
    }

    @Test func mp3FramesIncludingTheMusicBrainzUFID() throws {
        let tag = Fixtures.id3v2Tag(version: 4, frames: [
            ("TIT2", ["Tagged"]), ("TPUB", ["Label Co"]), ("TCOM", ["Bach", "Handel"]), ("TSOP", ["Ann, The"]),
            ("TSOA", ["Album, The"]), ("TSO2", ["Various, The"]), ("TSOC", ["Bach, J.S."]), ("TDOR", ["1999-01-02"]),
            ("TPE3", ["Karajan"]), ("TPE4", ["Remixer"]), ("TIT1", ["Baroque"]), ("COMM", ["eng", "A comment"]),
            ("COMM", ["engiTunNORM", " 0000021C 00000215"]), ("TXXX", ["MusicBrainz Artist Id", "art-1"]),
            ("TXXX", ["MusicBrainz Album Id", "alb-1"]), ("TXXX", ["MusicBrainz Album Artist Id", "aa-1"]),
            ("TXXX", ["MusicBrainz Release Track Id", "rt-1"]), ("TXXX", ["MusicBrainz Work Id", "w-1"]),
        ], rawFrames: [("UFID", Array("http://musicbrainz.org".utf8) + [0] + Array(Self.recording.utf8))])
        let track = try TrackReader.read(path: try mp3("frames.mp3", tag: tag))
        #expect(track.title == "Tagged")
        #expect(track.moreTags == [
            TagValue(.artistSort, "Ann, The"), TagValue(.albumSort, "Album, The"), TagValue(.albumArtistSort, "Various, The"),
            TagValue(.originalDate, "1999-01-02"), TagValue(.composer, "Bach"), TagValue(.composer, "Handel"),
            TagValue(.composerSort, "Bach, J.S."), TagValue(.conductor, "Karajan"), TagValue(.performer, "Remixer"),
            TagValue(.grouping, "Baroque"), TagValue(.comment, "A comment"), TagValue(.label, "Label Co"),
            TagValue(.musicBrainzArtistID, "art-1"), TagValue(.musicBrainzAlbumID, "alb-1"),
            TagValue(.musicBrainzAlbumArtistID, "aa-1"), TagValue(.musicBrainzTrackID, Self.recording),
            TagValue(.musicBrainzReleaseTrackID, "rt-1"), TagValue(.musicBrainzWorkID, "w-1"),
        ])
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 44100, bitsPerSample: 16, channels: 2))
    }

    @Test func mp3ID3v23OriginalYearAndMonoFormat() throws {
        let tag = Fixtures.id3v2Tag(version: 3, frames: [("TORY", ["1998"]), ("TCOM", ["Bach"])],
                                    rawFrames: [("UFID", Array("http://musicbrainz.org".utf8) + [0] + Array("rec-3".utf8))])
        let track = try TrackReader.read(path: try mp3("v23.mp3", tag: tag, rate: 22050, channels: 1))
        #expect(track.moreTags == [TagValue(.originalDate, "1998"), TagValue(.composer, "Bach"), TagValue(.musicBrainzTrackID, "rec-3")])
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 22050, bitsPerSample: 16, channels: 1))
    }

    @Test func mp3HostileFramesStayBounded() throws {
        let huge = String(repeating: "c", count: 1 << 20)
        // libmpg123 keeps one COMM of a language and description (the last): these differ.
        let tag = Fixtures.id3v2Tag(version: 4, frames: [
            ("COMM", ["eng", "line one\nline two\u{7}"]), ("COMM", ["engbig", huge]),
            ("TCOM", (0..<10_000).map { "Composer \($0)" }),
        ] + (0..<2_000).map { ("COMM", ["eng\($0)", "again"]) })
        let track = try TrackReader.read(path: try mp3("hostile.mp3", tag: tag))
        #expect(track.values(of: .comment) == ["line one line two", String(repeating: "c", count: VorbisCommentMapping.valueLimit), "again"])
        #expect(track.values(of: .composer).count == VorbisCommentMapping.listLimit)
        #expect(track.values(of: .composer).last == "Composer \(VorbisCommentMapping.listLimit - 1)")
    }

    @Test func flacCommentsAndItsStoredBits() throws {
        let file = path("tagged.flac")
        try Fixtures.makeFLAC(at: file, seconds: 0.5, rate: 48000, bits: 24, tags: [
            "TITLE=Flac", "COMPOSER=Bach", "COMPOSER=Handel", "ARTISTSORT=Ann, The", "DESCRIPTION=desc comment",
            "COMMENT=a comment", "MOVEMENT=3", "MOVEMENTNAME=Allegro", "ORIGINALDATE=1999", "MUSICBRAINZ_TRACKID=rec-1",
            "MUSICBRAINZ_ALBUMARTISTID=aa-1", "LABEL=Lbl", "WORK=The Work", "CONDUCTOR=Karajan", "PERFORMER=Perf",
        ])
        let track = try TrackReader.read(path: FilePath(file)!)
        #expect(track.moreTags == [
            TagValue(.artistSort, "Ann, The"), TagValue(.originalDate, "1999"), TagValue(.composer, "Bach"),
            TagValue(.composer, "Handel"), TagValue(.conductor, "Karajan"), TagValue(.performer, "Perf"),
            TagValue(.work, "The Work"), TagValue(.movement, "Allegro"), TagValue(.movementNumber, "3"),
            TagValue(.comment, "desc comment"), TagValue(.comment, "a comment"), TagValue(.label, "Lbl"),
            TagValue(.musicBrainzAlbumArtistID, "aa-1"), TagValue(.musicBrainzTrackID, "rec-1"),
        ])
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 48000, bitsPerSample: 24, channels: 2))
    }

    @Test func flacTenThousandComposersStayBounded() throws {
        let file = path("crowd.flac")
        try Fixtures.makeFLAC(at: file, seconds: 0.5, bits: 16)
        let comments = ["COMMENT=tab\tand bell\u{7}"] + (0..<10_000).map { "COMPOSER=Composer \($0)" }
        try Fixtures.replaceFLACMetadata(at: file, with: [(type: 4, body: Fixtures.vorbisCommentBody(comments))])
        let track = try TrackReader.read(path: FilePath(file)!)
        #expect(track.values(of: .comment) == ["tab and bell"])
        #expect(track.values(of: .composer).count == VorbisCommentMapping.listLimit)
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 44100, bitsPerSample: 16, channels: 2))
    }

    @Test func vorbisCommentsAndFloatFormat() throws {
        let file = path("tagged.ogg")
        try Fixtures.makeVorbis(at: file, seconds: 0.5, rate: 32000, channels: 1,
                                tags: [("COMPOSER", "Bach"), ("DESCRIPTION", "desc"), ("GROUPING", "G")], serial: 4711)
        try Fixtures.appendHugeVorbisComments(to: file, key: "COMMENT", count: 1, bytes: 1 << 20)
        try Fixtures.appendHugeVorbisComments(to: file, key: "COMPOSER", count: 10_000, bytes: 8)
        let track = try TrackReader.read(path: FilePath(file)!)
        // The megabyte comment is skipped unread; 10,000 more composers of one name are one.
        #expect(track.values(of: .composer) == ["Bach", "xxxxxxxx"])
        #expect(track.values(of: .grouping) == ["G"])
        #expect(track.values(of: .comment) == ["desc"])
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 32000, bitsPerSample: nil, channels: 1))
    }

    @Test func opusCommentsAndFloatAt48kHz() throws {
        let file = path("tagged.opus")
        try Fixtures.makeOpus(at: file, seconds: 0.5, rate: 44100, tags: [
            ("TITLE", "Opus"), ("COMPOSER", "Bach"), ("COMMENT", "c1"), ("MUSICBRAINZ_WORKID", "w-1"), ("ALBUMSORT", "Album, The"),
        ], serial: 4712)
        let track = try TrackReader.read(path: FilePath(file)!)
        #expect(track.moreTags == [TagValue(.albumSort, "Album, The"), TagValue(.composer, "Bach"), TagValue(.comment, "c1"),
                                   TagValue(.musicBrainzWorkID, "w-1")])
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 48000, bitsPerSample: nil, channels: 2))
    }

    @Test func m4aAtomsAndFreeformMusicBrainzIDs() throws {
        let file = path("tagged.m4a")
        try Fixtures.makeM4A(at: file, seconds: 1, title: "M4A",
                             extra: ["-metadata", "composer=Bach", "-metadata", "comment=nice", "-metadata", "grouping=G1"])
        try Fixtures.setFreeformAtoms(file, [
            "atom:soar=Ann, The", "atom:soaa=Various, The", "atom:soco=Bach, J.S.", "MusicBrainz Track Id=rec-1",
            "MusicBrainz Album Id=alb-1", "LABEL=Lbl",
        ])
        let track = try TrackReader.read(path: FilePath(file)!)
        #expect(track.title == "M4A")
        #expect(track.moreTags == [
            TagValue(.artistSort, "Ann, The"), TagValue(.albumArtistSort, "Various, The"), TagValue(.composer, "Bach"),
            TagValue(.composerSort, "Bach, J.S."), TagValue(.grouping, "G1"), TagValue(.comment, "nice"), TagValue(.label, "Lbl"),
            TagValue(.musicBrainzAlbumID, "alb-1"), TagValue(.musicBrainzTrackID, "rec-1"),
        ])
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 44100, bitsPerSample: nil, channels: 2))
    }

    @Test(arguments: [(sampleFormat: "s16p", bits: 16), (sampleFormat: "s32p", bits: 24)])
    func alacHasItsStoredBits(sampleFormat: String, bits: Int) throws {
        let file = path("alac-\(bits).m4a")
        try Fixtures.makeM4A(at: file, codec: .alac, seconds: 1, rate: 48000, extra: ["-sample_fmt", sampleFormat])
        let track = try TrackReader.read(path: FilePath(file)!)
        #expect(track.audioFormat == AudioFormatFacts(sampleRate: 48000, bitsPerSample: bits, channels: 2))
    }
}

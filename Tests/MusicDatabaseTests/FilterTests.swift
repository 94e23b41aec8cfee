import Testing
@testable import MusicDatabase
import PlayerCore

/// Every filter form, on a queue-like song (`FilterableSong`) and on the library, which must
/// agree.
@Suite struct FilterTests {
    struct QueueSong: FilterableSong {
        var uri: String
        var tags: [TagValue]
        var modificationTime: Int64? = 1_000
        var format: AudioFormatFacts? = AudioFormatFacts(sampleRate: 44100, bitsPerSample: 16, channels: 2)
        var priority = 0
        func values(of kind: TagKind) -> [String] { tags.filter { $0.kind == kind }.map(\.value) }
    }

    let song = QueueSong(uri: "Album/01 Song.mp3", tags: [TagValue(.artist, "Alpha"), TagValue(.artist, "Beta"),
                                                          TagValue(.title, "Straße"), TagValue(.album, "Café")])

    func tag(_ kind: TagKind, _ value: String, fold: Bool = false, sub: Bool = false, regex: Bool = false, not: Bool = false) -> SongFilter {
        .tag(.kind(kind), StringMatch(value, foldCase: fold, substring: sub, isRegex: regex, negated: not))
    }

    @Test func tagComparisons() {
        #expect(tag(.artist, "Beta").matches(song))            // any value
        #expect(!tag(.artist, "Beta", not: true).matches(song)) // != : none may equal
        #expect(tag(.artist, "Gamma", not: true).matches(song))
        #expect(!tag(.artist, "beta").matches(song))
        #expect(tag(.artist, "beta", fold: true).matches(song))
        #expect(tag(.title, "STRASSE", fold: true).matches(song))   // ß folds to ss
        #expect(tag(.album, "CAFÉ", fold: true).matches(song))
        #expect(tag(.album, "af", sub: true).matches(song))
        #expect(tag(.album, "^C.f", regex: true).matches(song))
        #expect(!tag(.album, "^c", regex: true).matches(song))
        #expect(tag(.album, "^c", fold: true, regex: true).matches(song))
    }

    @Test func missingTagsCompareAsEmptyAndFallBack() {
        #expect(tag(.genre, "").matches(song))
        #expect(!tag(.genre, "", not: true).matches(song))
        #expect(!tag(.genre, "Rock").matches(song))
        #expect(tag(.genre, "Rock", not: true).matches(song))
        #expect(tag(.albumArtist, "Alpha").matches(song))          // AlbumArtist → Artist
        #expect(tag(.albumArtistSort, "Beta").matches(song))       // → AlbumArtist → Artist
        #expect(tag(.artistSort, "Alpha").matches(song))
        #expect(tag(.albumSort, "Café").matches(song))
        #expect(!tag(.albumArtist, "").matches(song))              // the fallback has values
        #expect(!tag(.composer, "Alpha").matches(song))            // no fallback for composer
    }

    @Test func anyURIBaseTimeFormatAndPriority() {
        // `any` looks at tag values only, not at the URI (mpd 0.23: `search any aaa` does not
        // find Multi/aaa.mp3).
        #expect(SongFilter.tag(.any, StringMatch("beta", foldCase: true)).matches(song))
        #expect(!SongFilter.tag(.any, StringMatch("Song", substring: true)).matches(song))
        #expect(SongFilter.uri(StringMatch("Album/01 Song.mp3")).matches(song))
        #expect(SongFilter.uri(StringMatch("album", foldCase: true, substring: true)).matches(song))
        #expect(SongFilter.base("Album").matches(song) && SongFilter.base("").matches(song))
        #expect(!SongFilter.base("Alb").matches(song) && SongFilter.base("Album/01 Song.mp3").matches(song))
        #expect(SongFilter.modifiedSince(1_000).matches(song) && !SongFilter.modifiedSince(1_001).matches(song))
        let mask = AudioFormatPattern(sampleRate: 44100, bitsPerSample: nil, channels: 2, isMask: true)
        #expect(SongFilter.audioFormat(mask).matches(song))
        #expect(!SongFilter.audioFormat(AudioFormatPattern(sampleRate: 48000, bitsPerSample: .some(16), channels: 2, isMask: false)).matches(song))
        #expect(!SongFilter.audioFormat(AudioFormatPattern(sampleRate: nil, bitsPerSample: .some(nil), channels: nil, isMask: true)).matches(song))
        #expect(SongFilter.priorityAtLeast(0).matches(song) && !SongFilter.priorityAtLeast(1).matches(song))
        #expect(SongFilter.not(.priorityAtLeast(1)).matches(song))
        #expect(SongFilter.and([]).matches(song))
        #expect(!SongFilter.and([tag(.artist, "Alpha"), tag(.title, "x")]).matches(song))
    }

    @Test func theLibraryAgreesWithTheGenericMatcher() throws {
        let library = try TestLibrary.mpdReference()
        let snapshot = library.snapshot()
        let all = snapshot.songs(matching: .and([]))
        let filters: [SongFilter] = [
            tag(.albumArtist, "AA"), tag(.albumArtist, "", not: true), tag(.artist, "p", fold: true),
            tag(.title, "d.t", regex: true), .tag(.any, StringMatch("o", foldCase: true, substring: true, negated: true)),
            .uri(StringMatch("Multi", substring: true)), .base("Multi"), .not(.base("Album")),
            .audioFormat(AudioFormatPattern(sampleRate: 44100, bitsPerSample: .some(24), channels: 2, isMask: false)),
            .priorityAtLeast(0), tag(.date, "20", sub: true), .and([tag(.album, "MA"), .not(tag(.date, ""))]),
        ]
        for filter in filters {
            let expected = all.filter { filter.matches($0) && !(filter == .priorityAtLeast(0)) }.map(\.uri)
            #expect(snapshot.songs(matching: filter).map(\.uri) == expected, "\(filter)")
        }
        #expect(snapshot.songs(matching: .base("Nope")).isEmpty)
        #expect(snapshot.songs(matching: tag(.title, "T", sub: true), window: 1..<3).count == 2)
    }
}

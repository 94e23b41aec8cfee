import PlayerCore
import Testing
@testable import MPDProtocol

/// Answers byte for byte as a real mpd 0.23.12 wrote them for the same songs and state (three
/// MP3s made with sox and lame; the expected strings are its literal output).
@Suite struct ResponseTests {
    /// a.mp3 as mpd's database saw it, tags deliberately out of order.
    static let a = SongInfo(
        uri: "a.mp3", lastModified: 1_796_641_582, audioFormat: AudioFormatFacts(sampleRate: 44100, bitsPerSample: 24, channels: 2),
        tags: [TagValue(.genre, "Rock"), TagValue(.title, "T"), TagValue(.artist, "A"), TagValue(.disc, "1"),
               TagValue(.albumArtist, "X"), TagValue(.album, "L"), TagValue(.track, "3"), TagValue(.date, "2009")],
        duration: 2_037_500)
    static let b = SongInfo(
        uri: "A/b.mp3", lastModified: 1_796_641_582, audioFormat: AudioFormatFacts(sampleRate: 48000, bitsPerSample: 24, channels: 1),
        tags: [TagValue(.artist, "B\u{E4}rbel"), TagValue(.title, "Second Song"), TagValue(.album, "L"), TagValue(.track, "4"),
               TagValue(.date, "2010"), TagValue(.genre, "Jazz")],
        duration: 3_336_000)

    static let aLines = "file: a.mp3\nLast-Modified: 2026-12-07T11:06:22Z\nFormat: 44100:24:2\nArtist: A\nAlbumArtist: X\nTitle: T\nAlbum: L\nTrack: 3\nDate: 2009\nGenre: Rock\nDisc: 1\nTime: 2\nduration: 2.037\n"

    @Test func lsinfoOfTheRoot() {
        var writer = ResponseWriter()
        writer.song(Self.a)
        writer.directory("A", lastModified: 1_796_641_582)
        writer.playlist("p", lastModified: 1_796_641_748)
        writer.ok()
        #expect(text(writer) == Self.aLines + "directory: A\nLast-Modified: 2026-12-07T11:06:22Z\nplaylist: p\nLast-Modified: 2026-12-07T11:09:08Z\nOK\n")
    }

    @Test func playlistinfoAddsPositionIdAndANonZeroPriority() {
        var writer = ResponseWriter()
        writer.queueEntry(Self.a, at: QueueSlot(position: 0, id: 1))
        writer.queueEntry(Self.b, at: QueueSlot(position: 1, id: 2, priority: 5))
        writer.ok()
        #expect(text(writer) == Self.aLines + "Pos: 0\nId: 1\n" + "file: A/b.mp3\nLast-Modified: 2026-12-07T11:06:22Z\nFormat: 48000:24:1\nArtist: B\u{E4}rbel\nTitle: Second Song\nAlbum: L\nTrack: 4\nDate: 2010\nGenre: Jazz\nTime: 3\nduration: 3.336\nPos: 1\nId: 2\nPrio: 5\nOK\n")
    }

    @Test func theClientsTagMaskHidesTags() {
        // "tagtypes clear", "tagtypes enable title", "find artist A".
        var writer = ResponseWriter()
        writer.song(Self.a, tags: [.title])
        #expect(text(writer) == "file: a.mp3\nLast-Modified: 2026-12-07T11:06:22Z\nFormat: 44100:24:2\nTitle: T\nTime: 2\nduration: 2.037\n")
    }

    @Test func rangesStreamsAndUnknowns() {
        var writer = ResponseWriter()
        writer.song(SongInfo(uri: "http://user:secret@radio.example/live?x=1", range: PlayRange(start: 12_000_000, end: 305_500_900),
                             audioFormat: AudioFormatFacts(sampleRate: 48000, bitsPerSample: nil, channels: 2),
                             tags: [TagValue(.name, "Radio"), TagValue(.composer, "B"), TagValue(.composer, "A")]))
        writer.song(SongInfo(uri: "cue/x.flac", range: PlayRange(start: 1_500, end: nil), lastModified: -5, duration: 999_000))
        #expect(text(writer) == "file: http://radio.example/live?x=1\nRange: 12.000-305.500\nFormat: 48000:f:2\nName: Radio\nComposer: B\nComposer: A\n"
            + "file: cue/x.flac\nRange: 0.001-\nTime: 1\nduration: 0.999\n")
    }

    @Test func noValueCanForgeALine() {
        var writer = ResponseWriter()
        writer.song(SongInfo(uri: "a\nOK\n.mp3", tags: [TagValue(.title, "T\r\nfile: evil\u{7F}\u{0}")]))
        writer.ack(MPDError(.argument, "Boolean (0/1) expected: \n\rOK", command: "repeat"), listIndex: 3)
        #expect(text(writer) == "file: a OK .mp3\nTitle: T  file: evil  \nACK [2@3] {repeat} Boolean (0/1) expected:   OK\n")
    }

    @Test func statusWhilePlayingPausedAndStopped() {
        var report = StatusReport(volume: 100, repeats: true, playlistVersion: 6, playlistLength: 2, state: .play,
                                  current: .init(position: 0, id: 1), elapsed: 0, duration: 2_037_000, next: .init(position: 1, id: 2))
        var writer = ResponseWriter()
        writer.status(report)
        #expect(text(writer) == "volume: 100\nrepeat: 1\nrandom: 0\nsingle: 0\nconsume: 0\npartition: default\nplaylist: 6\nplaylistlength: 2\nmixrampdb: 0\nstate: play\nsong: 0\nsongid: 1\ntime: 0:2\nelapsed: 0.000\nbitrate: 0\nduration: 2.037\nnextsong: 1\nnextsongid: 2\n")

        report.state = .pause
        report.volume = 50
        report.single = .oneshot
        report.crossfadeSeconds = 3
        report.audioFormat = AudioFormatFacts(sampleRate: 44100, bitsPerSample: 24, channels: 2)
        report.next = .init(position: 0, id: 1)
        writer = ResponseWriter()
        writer.status(report)
        #expect(text(writer) == "volume: 50\nrepeat: 1\nrandom: 0\nsingle: oneshot\nconsume: 0\npartition: default\nplaylist: 6\nplaylistlength: 2\nmixrampdb: 0\nstate: pause\nxfade: 3\nsong: 0\nsongid: 1\ntime: 0:2\nelapsed: 0.000\nbitrate: 0\nduration: 2.037\naudio: 44100:24:2\nnextsong: 0\nnextsongid: 1\n")

        writer = ResponseWriter()
        writer.status(StatusReport(volume: 50, repeats: true, playlistVersion: 6, playlistLength: 2, state: .stop,
                                   current: .init(position: 0, id: 1), elapsed: 1_500_000, next: .init(position: 1, id: 2)))
        #expect(text(writer) == "volume: 50\nrepeat: 1\nrandom: 0\nsingle: 0\nconsume: 0\npartition: default\nplaylist: 6\nplaylistlength: 2\nmixrampdb: 0\nstate: stop\nsong: 0\nsongid: 1\nnextsong: 1\nnextsongid: 2\n")
    }

    @Test func statusOfAStreamWithAnErrorAndAnUpdate() {
        var writer = ResponseWriter()
        writer.status(StatusReport(state: .play, mixRampDelay: 1.5, current: .init(position: 3, id: 9), elapsed: 61_499_000,
                                   bitRate: 128, updateJob: 4, error: "Failed to open \"x\""))
        #expect(text(writer) == "repeat: 0\nrandom: 0\nsingle: 0\nconsume: 0\npartition: default\nplaylist: 0\nplaylistlength: 0\nmixrampdb: 0\nstate: play\nmixrampdelay: 1.5\nsong: 3\nsongid: 9\ntime: 61:0\nelapsed: 61.499\nbitrate: 128\nupdating_db: 4\nerror: Failed to open \"x\"\n")
    }

    @Test func statsOutputsAndListings() {
        var writer = ResponseWriter()
        writer.stats(StatsReport(uptime: 1859, playtime: 1, library: .init(artists: 2, albums: 2, songs: 3, totalDuration: 7_410_000, lastUpdate: 1_796_641_583)))
        #expect(text(writer) == "uptime: 1859\nplaytime: 1\nartists: 2\nalbums: 2\nsongs: 3\ndb_playtime: 7\ndb_update: 1796641583\n")

        writer = ResponseWriter()
        writer.outputs([OutputInfo(id: 0, name: "null", plugin: "null", enabled: true),
                        OutputInfo(id: 1, name: "Snapcast", plugin: "snapcast", enabled: false, attributes: ["zeroconf": "0", "dop": "1"])])
        #expect(text(writer) == "outputid: 0\noutputname: null\nplugin: null\noutputenabled: 1\noutputid: 1\noutputname: Snapcast\nplugin: snapcast\noutputenabled: 0\nattribute: dop=1\nattribute: zeroconf=0\n")

        writer = ResponseWriter()
        writer.decoders([DecoderInfo(plugin: "mad", suffixes: ["mp3", "mp2"], mimeTypes: ["audio/mpeg"]), DecoderInfo(plugin: "mpg123", suffixes: ["mp3"], mimeTypes: [])])
        #expect(text(writer) == "plugin: mad\nsuffix: mp3\nsuffix: mp2\nmime_type: audio/mpeg\nplugin: mpg123\nsuffix: mp3\n")

        writer = ResponseWriter()
        writer.urlHandlers(["http://", "https://"])
        writer.line("partition", "default")
        writer.line("replay_gain_mode", ReplayGainMode.off.rawValue)
        #expect(text(writer) == "handler: http://\nhandler: https://\npartition: default\nreplay_gain_mode: off\n")
    }

    @Test func tagTypesInMPDsOrder() {
        var writer = ResponseWriter()
        writer.tagTypes(ResponseWriter.allTags)
        #expect(text(writer) == "tagtype: Artist\ntagtype: ArtistSort\ntagtype: Album\ntagtype: AlbumSort\ntagtype: AlbumArtist\ntagtype: AlbumArtistSort\ntagtype: Title\ntagtype: Track\ntagtype: Name\ntagtype: Genre\ntagtype: Date\ntagtype: OriginalDate\ntagtype: Composer\ntagtype: ComposerSort\ntagtype: Performer\ntagtype: Conductor\ntagtype: Work\ntagtype: Movement\ntagtype: MovementNumber\ntagtype: Ensemble\ntagtype: Location\ntagtype: Grouping\ntagtype: Comment\ntagtype: Disc\ntagtype: Label\ntagtype: MUSICBRAINZ_ARTISTID\ntagtype: MUSICBRAINZ_ALBUMID\ntagtype: MUSICBRAINZ_ALBUMARTISTID\ntagtype: MUSICBRAINZ_TRACKID\ntagtype: MUSICBRAINZ_RELEASETRACKID\ntagtype: MUSICBRAINZ_WORKID\n")
        #expect(Set(TagKind.mpdOrder) == ResponseWriter.allTags)
        #expect(TagKind.mpdOrder.count == TagKind.allCases.count)
    }

    @Test func countListIdleAndQueueListings() {
        // "count group genre", "list genre group artist", an idle after setvol and repeat,
        // "playlist", "plchangesposid 0".
        var writer = ResponseWriter()
        writer.countGroup(.genre, "", songs: 1, playtime: 2_037_000)
        writer.countGroup(.genre, "Jazz", songs: 1, playtime: 3_336_000)
        #expect(text(writer) == "Genre: \nsongs: 1\nplaytime: 2\nGenre: Jazz\nsongs: 1\nplaytime: 3\n")

        writer = ResponseWriter()
        writer.tag(.artist, "A")
        writer.tag(.genre, "")
        writer.tag(.genre, "Rock")
        #expect(text(writer) == "Artist: A\nGenre: \nGenre: Rock\n")

        writer = ResponseWriter()
        writer.changes([.options, .mixer])
        writer.ok()
        #expect(text(writer) == "changed: mixer\nchanged: options\nOK\n")

        writer = ResponseWriter()
        writer.queueURI(position: 0, uri: "a.mp3")
        writer.queueURI(position: 1, uri: "A/b.mp3")
        writer.changedPosition(0, id: 1)
        #expect(text(writer) == "0:file: a.mp3\n1:file: A/b.mp3\ncpos: 0\nId: 1\n")
    }

    @Test func binaryChunks() {
        // "binarylimit 64", "albumart a.mp3 64" of a 100-byte cover: size, 36 bytes, newline.
        let cover = (0..<100).map { UInt8($0) }
        var writer = ResponseWriter()
        writer.line("size", cover.count)
        writer.binary(cover[64...])
        writer.ok()
        #expect(writer.bytes == Array("size: 100\nbinary: 36\n".utf8) + cover[64...] + Array("\nOK\n".utf8))
        writer = ResponseWriter()
        writer.line("size", 100)
        writer.binary([UInt8]())
        #expect(text(writer) == "size: 100\nbinary: 0\n\n")
    }

    @Test func listsAndGreetings() {
        var writer = ResponseWriter()
        writer.listOK()
        writer.ack(MPDError(.permission, "you don't have permission for \"play\"", command: "play"), listIndex: 1)
        #expect(text(writer) == "list_OK\nACK [4@1] {play} you don't have permission for \"play\"\n")
        #expect(ResponseWriter.greeting == "OK MPD 0.23.5\n")
        writer.removeAll()
        #expect(writer.bytes.isEmpty)
    }
}

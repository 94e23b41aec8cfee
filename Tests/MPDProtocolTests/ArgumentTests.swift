import PlayerCore
import Testing
@testable import MPDProtocol

/// Arguments that parse, and what they parse into — with mpd's leniencies (each of these lines
/// was answered OK by a real mpd 0.23.12).
@Suite struct ArgumentTests {
    @Test func numbersAsStrtolReadsThem() throws {
        #expect(try command("repeat 01") == .setRepeat(true))
        #expect(try command("repeat \" 1\"") == .setRepeat(true))
        #expect(try command("repeat +1") == .setRepeat(true))
        #expect(try command("random 0") == .setRandom(false))
        #expect(try command("setvol 100") == .setVolume(100))
        #expect(try command("volume -100") == .changeVolume(by: -100))
        #expect(try command("crossfade 4294967295") == .setCrossfade(seconds: 4_294_967_295))
        #expect(try command("binarylimit 8400896") == .binaryLimit(8_400_896))
        #expect(try command("play -1") == .play(position: nil))
        #expect(try command("play -5") == .play(position: -5))
        #expect(try command("playid") == .playID(nil))
        #expect(try command("pause 0") == .pause(false))
        #expect(try command("pause") == .pause(nil))
        // strtoul wraps and mpd keeps 32 bits of it.
        #expect(try command("plchanges -1") == .playlistChanges(since: 4_294_967_295, .all))
        #expect(try command("plchanges 99999999999999") == .playlistChanges(since: 276_447_231, .all))
    }

    @Test func ranges() throws {
        #expect(try command("delete -1") == .delete(.all))
        #expect(try command("delete 3") == .delete(SongRange(start: 3, end: 4)))
        #expect(try command("delete 2:") == .delete(SongRange(start: 2, end: nil)))
        #expect(try command("delete 2:2") == .delete(SongRange(start: 2, end: 2)))
        #expect(try command("delete 1:+3") == .delete(SongRange(start: 1, end: 3)))
        #expect(try command("prio 1 -1 0:2") == .setPriority(1, ranges: [.all, SongRange(start: 0, end: 2)]))
        #expect(try command("shuffle") == .shuffle(.all))
        #expect(try command("load p 2: +0") == .load("p", range: SongRange(start: 2, end: nil), position: InsertPosition("+0")))
        #expect(SongRange(start: 2, end: nil).clipped(to: 5) == 2..<5)
        #expect(SongRange(start: 7, end: 9).clipped(to: 5) == 5..<5)
    }

    @Test func songTimesKeepWholeMilliseconds() throws {
        #expect(try command("seek 0 12.5") == .seek(position: 0, to: 12_500_000))
        #expect(try command("seekid 3 0.0015") == .seekID(3, to: 1_000))
        #expect(try command("seek 0 1e1") == .seek(position: 0, to: 10_000_000))
        #expect(try command("seek 0 0x10") == .seek(position: 0, to: 16_000_000))
        #expect(try command("seek 0 \" 1\"") == .seek(position: 0, to: 1_000_000))
        #expect(try command("seek 0 +.5e1") == .seek(position: 0, to: 5_000_000))
        guard case .seek(_, let infinite) = try command("seek 0 INF") else { throw UnexpectedCommand() }
        #expect(infinite > 1_000_000_000_000_000)
        #expect(try command("seekcur +5") == .seekCurrent(.by(5_000_000)))
        #expect(try command("seekcur -2.25") == .seekCurrent(.by(-2_250_000)))
        #expect(try command("seekcur 30") == .seekCurrent(.to(30_000_000)))
        // A negative time without a leading sign is absolute: mpd seeks to 0.
        #expect(try command("seekcur \" -3\"") == .seekCurrent(.to(0)))
        // Infinity saturates; NaN is refused (mpd takes it: undefined behaviour in C).
        guard case .seekCurrent(.to(let far)) = try command("seekcur inf") else { throw UnexpectedCommand() }
        #expect(far > 1_000_000_000_000_000)
        #expect(parseAnswer("seekcur nan") == "ACK [2@0] {seekcur} Float expected: nan\n")
        #expect(parseAnswer("seek 0 -0") == "OK\n")
    }

    @Test func wordsAndPaths() throws {
        #expect(try command("single oneshot") == .setSingle(.oneshot))
        #expect(try command("replay_gain_mode album") == .setReplayGainMode(.album))
        #expect(try command("idle") == .idle(.all))
        #expect(try command("idle Player MIXER player") == .idle([.player, .mixer]))
        #expect(try command("tagtypes enable Artist ALBUM") == .tagTypes(.enable([.artist, .album])))
        #expect(try command("tagtypes disable musicbrainz_trackid") == .tagTypes(.disable([.musicBrainzTrackID])))
        #expect(try command("tagtypes clear") == .tagTypes(.clear))
        #expect(try command("add /") == .add(uri: "", position: nil))
        #expect(try command("addid /") == .addID(uri: "/", position: nil))
        #expect(try command("lsinfo /") == .lsinfo(""))
        #expect(try command("listall") == .listAll(""))
        #expect(try command("update /") == .update(""))
        #expect(try command("update \"\"") == .update(""))
        #expect(try command("update .../x") == .update(".../x"))
        #expect(try command("rescan A/B") == .rescan("A/B"))
        #expect(try command("playlistadd p a.mp3") == .playlistAdd("p", uri: "a.mp3", position: nil))
        #expect(try command("moveid 4 x") == .moveID(4, to: MoveDestination("x")))
    }

    @Test func safeLocalPathsAsMPDSeesThem() {
        for path in ["a", "a/b", "...", ".../x", "a.b/c..d", ".x/..y"] { #expect(LocalURI.isSafe(path), "\(path)") }
        for path in ["", ".", "..", "a/", "/a", "a//b", "a/./b", "a/../b", "a/.."] { #expect(!LocalURI.isSafe(path), "\(path)") }
    }
}

/// Positions relative to the current song, resolved against a queue as mpd 0.23.12 resolved them
/// (a queue of two songs, the first current; the answers are the real ones).
@Suite struct PositionTests {
    private func insert(_ text: String, length: Int = 2, current: Int? = 0) throws -> Int {
        try InsertPosition(text).resolve(queueLength: length, currentPosition: current)
    }

    @Test func insertPositions() throws {
        #expect(try insert("2") == 2)
        #expect(try insert("+0") == 1)
        #expect(try insert("+1") == 2)
        #expect(try insert("-0") == 0)
        #expect(try insert(" 1") == 1)
        #expect(throws: MPDError.argument("Number too large", "3")) { try insert("3") }
        #expect(throws: MPDError.argument("Number too large", "2")) { try insert("+2") }
        #expect(throws: MPDError.argument("Number too large", "1")) { try insert("-1") }
        #expect(throws: MPDError.argument("Number too large", "-1")) { try insert("+-1") }
        #expect(throws: MPDError.argument("Integer expected", "x")) { try insert("+x") }
        #expect(throws: MPDError.argument("Integer expected", "")) { try insert("-") }
        // `add "" +1` on an empty queue: ACK [55@0] {add} No current song.
        #expect(throws: MPDError.noCurrentSong) { try insert("+x", length: 0, current: nil) }
    }

    @Test func moveDestinations() throws {
        func move(_ range: Range<Int>, _ text: String) throws -> Int {
            try MoveDestination(text).resolve(moving: range, queueLength: 2, currentPosition: 0)
        }
        #expect(try move(1..<2, "-0") == 0)
        #expect(try move(1..<2, "+0") == 1)
        #expect(try move(1..<2, "0") == 0)
        #expect(throws: MPDError(.argument, "Cannot move current song relative to itself")) { try move(0..<1, "+0") }
        #expect(throws: MPDError(.argument, "Cannot move current song relative to itself")) { try move(0..<1, "-1") }
        #expect(throws: MPDError.argument("Number too large", "5")) { try move(1..<2, "+5") }
        #expect(throws: MPDError.argument("Number too large", "5")) { try move(1..<2, "5") }
        #expect(throws: MPDError.argument("Number too large", "2")) { try move(1..<2, "-2") }
        #expect(throws: MPDError.argument("Number too large", "1")) { try move(0..<2, "1") }
        #expect(throws: MPDError.argument("Integer expected", "x")) { try move(1..<2, "+x") }
        #expect(throws: MPDError.noCurrentSong) {
            try MoveDestination("+1").resolve(moving: 0..<1, queueLength: 2, currentPosition: nil)
        }
    }

    @Test func anErrorOfTheServerNamesItsCommand() {
        var writer = ResponseWriter()
        writer.ack(MPDError.noCurrentSong.withCommand("add"), listIndex: 0)
        #expect(text(writer) == "ACK [55@0] {add} No current song\n")
    }
}

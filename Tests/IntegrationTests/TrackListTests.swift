import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// org.mpris.MediaPlayer2.TrackList (MPRIS 2.2): every method, property and signal with its
/// exact types; edits keep the ids of the other tracks; bad URIs are errors that change nothing;
/// a big folder loads without holding up other calls.
final class TrackListTests: AubadeTestCase {
    private var queueFixtures: QueueFixtures!

    override func setUpWithError() throws {
        try super.setUpWithError()
        queueFixtures = try QueueFixtures.shared()
    }

    private func isTrackListSignal(_ member: String) -> (MonitoredMessage) -> Bool {
        { $0.kind == "signal" && $0.interface == Bus.trackListInterface && $0.member == member }
    }

    private func isTracksInvalidated(_ message: MonitoredMessage) -> Bool {
        message.changedInterface == Bus.trackListInterface && message.invalidatedProperties.contains("Tracks")
    }

    // MARK: Properties

    func testHasTrackListAndTheTrackListProperties() throws {
        try startDaemon(fixtures.shortTracks)
        XCTAssertEqual(try Bus.get(Bus.rootInterface, "HasTrackList"), .boolean(true))
        XCTAssertEqual(try Bus.get(Bus.trackListInterface, "CanEditTracks"), .boolean(true))
        let raw = try Bus.getRaw(Bus.trackListInterface, "Tracks")
        XCTAssertEqual(raw.values.first?.unwrapped.signature, "ao", "\(raw)")
        let all = try Bus.getAll(Bus.trackListInterface)
        XCTAssertEqual(Set(all.keys), ["Tracks", "CanEditTracks"], "GetAll TrackList: \(all)")
    }

    func testTracksListTheQueueInOrderAndTheCurrentTrackIsTheFirst() throws {
        try startDaemon(fixtures.shortTracks)
        let ids = try tracks()
        XCTAssertEqual(ids.count, 3)
        XCTAssertEqual(Set(ids).count, 3, "ids not unique: \(ids)")
        XCTAssertEqual(try queueTitles(), ["Short One", "Short Two", "Short Three"])
        XCTAssertEqual(try trackID(), ids.first)
    }

    // MARK: GetTracksMetadata

    func testGetTracksMetadataAnswersInTheOrderAskedAndLeavesOutUnknownIds() throws {
        try startDaemon([fixtures.alpha, fixtures.beta, fixtures.untagged])
        let ids = try tracks()
        XCTAssertEqual(ids.count, 3)
        guard ids.count == 3 else { return }
        let unknown = "/org/aubade/Track/987654321"
        let reply = try Bus.trackList("GetTracksMetadata", ["array:objpath:\(ids[2]),\(unknown),\(Bus.noTrack),\(ids[0])"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        XCTAssertEqual(reply.values.first?.signature, "aa{sv}", "\(reply)")
        let metadata = try Bus.tracksMetadata([ids[2], unknown, Bus.noTrack, ids[0]])
        XCTAssertEqual(metadata.count, 2, "unknown ids are left out: \(metadata)")
        guard metadata.count == 2 else { return }
        XCTAssertEqual(metadata[0]["mpris:trackid"], .objectPath(ids[2]))
        XCTAssertEqual(metadata[0]["xesam:title"], .string("c tone"))
        XCTAssertEqual(metadata[1]["mpris:trackid"], .objectPath(ids[0]))
        XCTAssertEqual(metadata[1]["xesam:title"], .string("Alpha"))
        XCTAssertEqual(metadata[1]["mpris:length"], .integer("x", TestMusic.alphaLengthMicroseconds))
        XCTAssertEqual(metadata[1]["xesam:artist"]?.signature, "as")
        XCTAssertEqual(metadata[1]["xesam:url"]?.string, fixtures.alpha.absoluteString)
    }

    func testGetTracksMetadataOfNothingIsEmpty() throws {
        try startDaemon([fixtures.alpha])
        let reply = try Bus.trackList("GetTracksMetadata", ["array:objpath:"])
        if reply.succeeded {
            XCTAssertEqual(reply.values.first, .array([]), "\(reply)")
        } else {
            // dbus-send cannot always send an empty array; the daemon must still answer.
            assertStillAnswers()
        }
    }

    // MARK: AddTrack

    func testAddTrackAtTheStartAnnouncesTrackAddedAfterNoTrack() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        let before = try tracks()
        let current = try trackID()
        let signals = try monitor(daemon)
        let mark = signals.mark
        try addTrack(fixtures.alpha, after: Bus.noTrack)
        let after = try tracks()
        XCTAssertEqual(after.count, 3)
        XCTAssertEqual(Array(after.dropFirst()), before, "the other ids changed or moved")
        XCTAssertEqual(try queueTitles(), ["Alpha", "Long One", "Long Two"])
        XCTAssertEqual(try trackID(), current, "adding without SetAsCurrent changed the current track")
        XCTAssertEqual(try playbackStatus(), "Playing")

        let added = signals.waitForMessage(after: mark, where: isTrackListSignal("TrackAdded"))
        XCTAssertNotNil(added, "no TrackAdded")
        if let added {
            XCTAssertEqual(added.arguments.map(\.signature), ["a{sv}", "o"], "\(added)")
            XCTAssertEqual(added.arguments.first?.dictionary?["mpris:trackid"], .objectPath(after[0]))
            XCTAssertEqual(added.arguments.first?.dictionary?["xesam:title"], .string("Alpha"))
            XCTAssertEqual(added.arguments.last, .objectPath(Bus.noTrack))
        }
        XCTAssertNotNil(signals.waitForMessage(after: mark, where: isTracksInvalidated),
                        "no PropertiesChanged(TrackList, invalidated: Tracks)")
        // Tracks is announced as invalidated, never with its value.
        let withValue = signals.messages[mark...].filter { $0.changedInterface == Bus.trackListInterface && $0.changedProperties["Tracks"] != nil }
        XCTAssertTrue(withValue.isEmpty, "Tracks sent with a value: \(withValue)")
    }

    func testAddTrackAfterATrackInsertsRightAfterIt() throws {
        let daemon = try startDaemon([fixtures.long, fixtures.long2])
        let before = try tracks()
        let signals = try monitor(daemon)
        let mark = signals.mark
        try addTrack(fixtures.beta, after: before[0])
        let after = try tracks()
        XCTAssertEqual(after.count, 3)
        guard after.count == 3 else { return }
        XCTAssertEqual([after[0], after[2]], before, "ids of the other tracks changed")
        XCTAssertEqual(try queueTitles(), ["Long One", "Beta", "Long Two"])
        let added = signals.waitForMessage(after: mark, where: isTrackListSignal("TrackAdded"))
        XCTAssertEqual(added?.arguments.last, .objectPath(before[0]), "TrackAdded's AfterTrack: \(added.map(String.init(describing:)) ?? "none")")
    }

    func testAddTrackAfterTheLastAppends() throws {
        try startDaemon([fixtures.long, fixtures.long2])
        let before = try tracks()
        try addTrack(fixtures.alpha, after: before[1])
        XCTAssertEqual(try queueTitles(), ["Long One", "Long Two", "Alpha"])
        XCTAssertEqual(Array(try tracks().prefix(2)), before)
    }

    func testAddTrackSetAsCurrentPlaysIt() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        let before = try tracks()
        try addTrack(fixtures.alpha, after: before[0], setAsCurrent: true)
        try waitForTitle("Alpha")
        XCTAssertEqual(try trackID(), try tracks()[1])
        try waitForStatus("Playing")
    }

    func testAddingAFolderAddsItsFilesInNaturalOrderAsConsecutiveTrackAdded() throws {
        let daemon = try startDaemon([fixtures.long])
        let first = try tracks()[0]
        let signals = try monitor(daemon)
        let mark = signals.mark
        try addTrack(fixtures.albumDirectory, after: first)
        XCTAssertEqual(try queueTitles(), ["Long One", "Two", "Ten"])
        let ids = try tracks()
        XCTAssertNotNil(signals.waitForMessage(after: mark) { [self] in
            isTrackListSignal("TrackAdded")($0) && $0.arguments.first?.dictionary?["xesam:title"] == .string("Ten")
        })
        let added = signals.messages[mark...].filter(isTrackListSignal("TrackAdded"))
        XCTAssertEqual(added.count, 2, "\(added)")
        guard added.count == 2, ids.count == 3 else { return }
        XCTAssertEqual(added[0].arguments.last, .objectPath(first))
        XCTAssertEqual(added[1].arguments.last, .objectPath(ids[1]), "the second TrackAdded follows the first")
    }

    func testAddingAPlaylistFileAddsItsTracks() throws {
        try startDaemon([fixtures.long])
        try addTrack(fixtures.playlist, after: try tracks()[0])
        XCTAssertEqual(try queueTitles(), ["Long One", "Alpha", "Beta"])
    }

    func testBadAddTrackCallsAreErrorsThatChangeNothing() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        let before = try tracks()
        let current = try trackID()
        let signals = try monitor(daemon)
        let mark = signals.mark
        let bad: [(String, String)] = [
            ("a missing file", fixtures.missing.absoluteString),
            ("an ftp URI", "ftp://example.com/song.mp3"),
            ("an http URI with a space", "http://example.com/a song.mp3"),
            ("not a URI", "this is not a uri"),
            ("a relative path", "a.mp3"),
            ("random bytes", fixtures.random.absoluteString),
            ("an empty file", fixtures.empty.absoluteString),
            ("a folder without music", fixtures.emptyDirectory.absoluteString),
        ]
        for (what, uri) in bad {
            let reply = try Bus.addTrack(uri, after: before[0])
            XCTAssertFalse(reply.succeeded, "AddTrack of \(what) (\(uri)) succeeded")
            XCTAssertNotNil(reply.errorName, "AddTrack of \(what): \(reply)")
        }
        let unknownAfter = try Bus.addTrack(fixtures.alpha.absoluteString, after: "/org/aubade/Track/987654321")
        XCTAssertFalse(unknownAfter.succeeded, "AddTrack after an unknown track succeeded")
        XCTAssertEqual(try tracks(), before)
        XCTAssertEqual(try trackID(), current)
        XCTAssertEqual(try playbackStatus(), "Playing")
        // Give stray signals a moment to arrive before judging.
        _ = signals.waitForMessage(after: mark, timeout: 0.5, where: isTrackListSignal("TrackAdded"))
        let trackListSignals = signals.messages[mark...].filter {
            $0.interface == Bus.trackListInterface || $0.changedInterface == Bus.trackListInterface
        }
        XCTAssertTrue(trackListSignals.isEmpty, "failed adds were announced: \(trackListSignals)")
        assertStillAnswers()
    }

    func testAddingMoreThanFiftyTracksIsOneTrackListReplaced() throws {
        let folder = try queueFixtures.folderOfTinyFiles(60, name: "sixty")
        let daemon = try startPlaying([fixtures.long])
        let first = try tracks()[0]
        let signals = try monitor(daemon)
        let mark = signals.mark
        try addTrack(folder, after: first)
        let ids = try tracks()
        XCTAssertEqual(ids.count, 61)
        XCTAssertEqual(ids.first, first)
        let replaced = signals.waitForMessage(after: mark, where: isTrackListSignal("TrackListReplaced"))
        XCTAssertNotNil(replaced, "no TrackListReplaced for 60 tracks")
        if let replaced {
            XCTAssertEqual(replaced.arguments.map(\.signature), ["ao", "o"], "\(replaced)")
            if case .array(let paths)? = replaced.arguments.first {
                XCTAssertEqual(paths.compactMap(\.string), ids)
            }
            XCTAssertEqual(replaced.arguments.last, .objectPath(first), "TrackListReplaced's CurrentTrack")
        }
        XCTAssertNotNil(signals.waitForMessage(after: mark, where: isTracksInvalidated))
        let added = signals.messages[mark...].filter(isTrackListSignal("TrackAdded"))
        XCTAssertTrue(added.isEmpty, "\(added.count) TrackAdded beside TrackListReplaced")
    }

    func testAddingFiftyTracksIsFiftyTrackAdded() throws {
        let folder = try queueFixtures.folderOfTinyFiles(50, name: "fifty")
        let daemon = try startDaemon([fixtures.long])
        let signals = try monitor(daemon)
        let mark = signals.mark
        try addTrack(folder, after: try tracks()[0])
        XCTAssertEqual(try tracks().count, 51)
        // The folder's own: the command line's track may be announced after the mark (the
        // daemon serves its name before its first queue is loaded).
        let folderPrefix = folder.absoluteString
        let isFolderTrackAdded: (MonitoredMessage) -> Bool = {
            self.isTrackListSignal("TrackAdded")($0)
                && ($0.arguments.first?.dictionary?["xesam:url"]?.string ?? "").hasPrefix(folderPrefix)
        }
        try eventually("50 TrackAdded", timeout: 5) {
            signals.messages[mark...].filter(isFolderTrackAdded).count >= 50
        }
        XCTAssertEqual(signals.messages[mark...].filter(isFolderTrackAdded).count, 50)
        XCTAssertTrue(signals.messages[mark...].filter(isTrackListSignal("TrackListReplaced")).isEmpty)
    }

    // MARK: RemoveTrack

    func testRemoveTrackAnnouncesTrackRemovedAndKeepsTheOtherIds() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.long2, fixtures.alpha])
        let before = try tracks()
        let signals = try monitor(daemon)
        let mark = signals.mark
        let reply = try Bus.trackList("RemoveTrack", ["objpath:\(before[1])"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        XCTAssertEqual(try tracks(), [before[0], before[2]])
        XCTAssertEqual(try title(), "Long One", "removing another track changed the current one")
        let removed = signals.waitForMessage(after: mark, where: isTrackListSignal("TrackRemoved"))
        XCTAssertEqual(removed?.arguments, [.objectPath(before[1])], "\(removed.map(String.init(describing:)) ?? "no TrackRemoved")")
        XCTAssertNotNil(signals.waitForMessage(after: mark, where: isTracksInvalidated))
        XCTAssertEqual(try Bus.tracksMetadata([before[1]]).count, 0, "the removed id still has metadata")
    }

    func testRemovingTheCurrentTrackPlaysTheNextOne() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        let before = try tracks()
        let reply = try Bus.trackList("RemoveTrack", ["objpath:\(before[0])"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        try waitForTitle("Long Two")
        XCTAssertEqual(try trackID(), before[1], "the next track kept its id")
        try waitForStatus("Playing")
        XCTAssertEqual(try tracks(), [before[1]])
    }

    func testRemovingAnUnknownTrackIsAnErrorThatChangesNothing() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        let before = try tracks()
        for path in ["/org/aubade/Track/987654321", Bus.noTrack] {
            let reply = try Bus.trackList("RemoveTrack", ["objpath:\(path)"])
            XCTAssertFalse(reply.succeeded, "RemoveTrack \(path): \(reply)")
        }
        XCTAssertEqual(try tracks(), before)
        XCTAssertEqual(try playbackStatus(), "Playing")
        assertStillAnswers()
    }

    // MARK: GoTo

    func testGoToPlaysThatTrack() throws {
        try startPlaying([fixtures.long, fixtures.long2, fixtures.alpha])
        let ids = try tracks()
        let reply = try Bus.trackList("GoTo", ["objpath:\(ids[2])"])
        XCTAssertTrue(reply.succeeded, "\(reply)")
        try waitForTitle("Alpha")
        XCTAssertEqual(try trackID(), ids[2])
        XCTAssertEqual(try tracks(), ids, "GoTo changed the tracklist")
        try waitForStatus("Playing")
    }

    func testGoToAnUnknownTrackIsAnError() throws {
        try startPlaying([fixtures.long, fixtures.long2])
        let id = try trackID()
        let reply = try Bus.trackList("GoTo", ["objpath:/org/aubade/Track/987654321"])
        XCTAssertFalse(reply.succeeded, "\(reply)")
        XCTAssertEqual(try trackID(), id)
    }

    // MARK: Ids never change

    func testIdsSurviveAddsAndRemovesAroundThem() throws {
        try startDaemon([fixtures.long, fixtures.long2])
        let original = try tracks()
        let metadataBefore = try Bus.tracksMetadata(original).map { $0["xesam:title"] }
        try addTrack(fixtures.alpha, after: Bus.noTrack)
        try addTrack(fixtures.albumDirectory, after: original[0])
        let middle = try tracks()
        XCTAssertEqual(middle.count, 5)
        XCTAssertEqual(middle.filter(original.contains), original, "original ids changed after adds: \(middle)")
        XCTAssertTrue(try Bus.trackList("RemoveTrack", ["objpath:\(middle[0])"]).succeeded)
        XCTAssertTrue(try Bus.trackList("RemoveTrack", ["objpath:\(middle[2])"]).succeeded)
        let after = try tracks()
        XCTAssertEqual(after.filter(original.contains), original)
        XCTAssertEqual(try Bus.tracksMetadata(original).map { $0["xesam:title"] }, metadataBefore)
        // A re-added file is a new entry with a new id.
        try addTrack(fixtures.long, after: after.last!)
        let readded = try tracks().last!
        XCTAssertFalse(original.contains(readded), "a new entry reused id \(readded)")
    }

    // MARK: Responsiveness

    /// A folder of 300 files: while AddTrack reads them, Get(PlaybackStatus) is answered at once,
    /// before AddTrack's own reply (which comes when the tracks are in).
    func testAddingABigFolderDoesNotHoldUpOtherCalls() throws {
        let count = 300
        let folder = try queueFixtures.folderOfTinyFiles(count, name: "three-hundred")
        try startPlaying([fixtures.long])
        let first = try tracks()[0]
        let adder = try BusClient(label: "adder")
        let getter = try BusClient(label: "getter")
        _ = try getter.get(Bus.playerInterface, "PlaybackStatus")  // warm up the connection

        final class Outcome: @unchecked Sendable {
            let lock = NSLock()
            var done = false
            var result: Result<[DBusKit.DBusValue], DBusError>?
            var seconds = 0.0
        }
        let outcome = Outcome()
        try adder.callAsync(Bus.trackListInterface, "AddTrack",
                            [.string(folder.absoluteString), .objectPath(first), .boolean(false)]) { result, seconds in
            outcome.lock.withLock {
                outcome.done = true
                outcome.result = result
                outcome.seconds = seconds
            }
        }
        let started = Date()
        Thread.sleep(forTimeInterval: 0.02)  // AddTrack reaches the daemon first
        var during = Timings(seconds: [])
        var after = 0
        var statuses: Set<String> = []
        while Date().timeIntervalSince(started) < 60 {
            let (value, seconds) = try getter.get(Bus.playerInterface, "PlaybackStatus")
            if case .string(let status)? = value { statuses.insert(status) }
            if outcome.lock.withLock({ outcome.done }) {
                after += 1
                if after >= 3 { break }
            } else {
                during.seconds.append(seconds)
            }
            Thread.sleep(forTimeInterval: 0.001)
        }
        let (result, addSeconds) = outcome.lock.withLock { (outcome.result, outcome.seconds) }
        print(String(format: "AddTrack of %d files took %.0f ms; Get(PlaybackStatus) during it: %@", count,
                     addSeconds * 1000, "\(during)"))
        guard let result else { return XCTFail("AddTrack of \(count) files did not answer within 60 s") }
        if case .failure(let error) = result { XCTFail("AddTrack of the folder failed: \(error)") }
        XCTAssertEqual(try tracks().count, count + 1)
        XCTAssertEqual(statuses, ["Playing"])
        // Gets go out about every millisecond: a load that held up the bus would leave none
        // answered before AddTrack's own reply.
        if addSeconds >= 0.02 {
            XCTAssertGreaterThanOrEqual(during.seconds.count, 2,
                                        "Get(PlaybackStatus) was answered only after AddTrack (\(Int(addSeconds * 1000)) ms): the load blocks the bus")
        }
        if !during.seconds.isEmpty {
            XCTAssertLessThan(during.max, 0.1, "a Get during the add took \(Int(during.max * 1000)) ms: \(during)")
            XCTAssertLessThan(during.median, 0.02, "Get during the add: \(during)")
        }
        if addSeconds < 0.1 {
            print("note: the add was quick (\(Int(addSeconds * 1000)) ms); the overlap this test looks for is short")
        }
    }
}

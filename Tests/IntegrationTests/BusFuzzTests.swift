import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// Issue 10: the bus fuzz test. Any program on the session bus can call the daemon; none may
/// crash it, hang it, leak from it or get a wrong signature accepted.
///
/// It introspects the running daemon's object tree from `/` and sends thousands of calls made
/// from it (`HostileCallMaker`): every method and property, right and wrong signatures, missing
/// and extra arguments, `h` arguments, Int64/UInt64 extremes, NaN and ±inf, empty and 1 MiB
/// strings, 10,000-element arrays, unknown interfaces, members and paths, Set on read-only
/// properties, hostile URIs (`HostileFiles`). Checks: every call is answered; wrong signatures
/// on Aubade's interfaces, read-only and unknown things are errors; Ping is answered between
/// batches; open descriptors and resident memory stay flat; afterwards it still plays.
///
/// Seeded: the seed is printed, and `AUBADE_FUZZ_SEED=N` replays a run (`AUBADE_FUZZ_CALLS`
/// changes the number of calls, 5,000 by default). Bounded: calls stop after 18 s whatever the
/// count, loads must be answered by 25 s, so the test stays within 30 s on a busy machine.
final class BusFuzzTests: AubadeTestCase {
    private static let defaultCalls = 5_000
    private static let warmUpCalls = 300
    private static let batchSize = 250
    private static let timeBudget: TimeInterval = 18
    /// Loads still running then are failures (each hostile one takes milliseconds).
    private static let loadDeadline: TimeInterval = 25
    private static let noTrack = "/org/mpris/MediaPlayer2/TrackList/NoTrack"
    /// Descriptors may differ by a few (a playlist folder watch, a sound-server reconnect).
    private static let descriptorSlack = 3
    /// Resident memory may grow by this much over the run (malloc keeps some freed 1 MiB
    /// buffers; measured here: +0.3 to +10 MiB over 5,000 calls, seeds 1–6; the benchmark saw
    /// +14 MiB over its first 10,000 calls and +2.6 MiB over the next 20,000: it levels off).
    /// A leak of the 1 MiB strings alone would pass it within the first 30 of them.
    /// Growth allowed over the run. Under ThreadSanitizer the daemon's resident memory grows two
    /// to three times as much for the same work (shadow memory and sync-object history for what
    /// it touches: +18 and +27 MiB in two runs of the same test, where the plain run grew 8–9 MiB),
    /// so the bound there is wider; the plain run keeps the real one.
    private static var memorySlackKiB: Int {
        ProcessInfo.processInfo.environment["AUBADE_SANITIZER"] == "thread" ? 64 * 1024 : 24 * 1024
    }

    private var hostileFiles: HostileFiles?

    override func tearDown() {
        hostileFiles?.remove()
        hostileFiles = nil
        super.tearDown()
    }

    func testThousandsOfHostileCallsAreAnsweredAndLeaveTheDaemonWhole() throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["AUBADE_FUZZ_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0 ... .max)
        let callLimit = environment["AUBADE_FUZZ_CALLS"].flatMap { Int($0) } ?? Self.defaultCalls
        let replay = "seed \(seed); replay with AUBADE_FUZZ_SEED=\(seed)"
        print("BusFuzzTests: \(replay)")

        let files = try HostileFiles(in: TestRunDirectory.url)
        hostileFiles = files
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        let client = try BusClient()
        let tree = try IntrospectedTree.walk(client)
        let methods = tree.servingObjects.flatMap(\.interfaces).flatMap(\.methods)
        XCTAssertGreaterThanOrEqual(methods.count, 20, "introspection found only \(methods.map(\.name))")
        XCTAssertTrue(tree.objects.contains { $0.path == "/org/mpris/MediaPlayer2" }, "objects: \(tree.objects.map(\.path))")
        let properties = tree.servingObjects.flatMap(\.interfaces).flatMap(\.properties)
        XCTAssertGreaterThanOrEqual(properties.count, 20, "introspection found only \(properties.map(\.name))")

        let descriptor = open("/dev/null", O_RDONLY | O_CLOEXEC)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        var maker = HostileCallMaker(tree: tree, values: HostileValues(seed: seed, descriptor: descriptor, uris: files.uris))

        let run = FuzzRun(daemon: daemon, client: client)
        let started = Date()
        // First every method and property once in each way (the warm-up), then at random.
        let sweep = maker.sweep()
        print("BusFuzzTests: \(tree.objects.count) objects, \(methods.count) methods, \(properties.count) properties; "
              + "a sweep of \(sweep.count) calls first")
        var warmedUp = 0
        for call in sweep where run.mayGoOn {
            while !run.send(call), run.mayGoOn { Thread.sleep(forTimeInterval: 0.01) }  // too many loads pending
            warmedUp += 1
        }
        while warmedUp < Self.warmUpCalls, run.mayGoOn {
            if run.send(maker.next()) { warmedUp += 1 }
        }
        guard daemon.isRunning else {
            for failure in run.failures.prefix(5) { XCTFail("\(failure) (\(replay))") }
            return XCTFail("the daemon died during the warm-up (\(replay))")
        }
        let before = try ProcessFacts.openDescriptors(of: daemon.pid)
        let rssBefore = try ProcessFacts.residentKilobytes(of: daemon.pid)

        var sent = warmedUp
        while sent < callLimit, Date().timeIntervalSince(started) < Self.timeBudget, run.mayGoOn {
            var inBatch = 0
            while inBatch < min(Self.batchSize, callLimit - sent), run.mayGoOn {
                if run.send(maker.next()) { inBatch += 1 }
            }
            sent += inBatch
            run.checkBetweenBatches()
            maker.values.trackIDs = (try? client.property("org.mpris.MediaPlayer2.TrackList", "Tracks"))??.asObjectPathArray ?? []
        }
        run.waitForLoads(until: started.addingTimeInterval(Self.loadDeadline))
        let seconds = Date().timeIntervalSince(started)
        let score = run.snapshot
        print(String(format: "BusFuzzTests: %d calls in %.1f s (%@), %d errors, %d returns, slowest reply %.1f ms (%@)",
                     sent, seconds, replay, score.errors, score.returns, score.slowest.seconds * 1000, score.slowest.call))
        print("BusFuzzTests: most time in: " + run.busiestKinds)

        for failure in score.failures.prefix(20) { XCTFail("\(failure) (\(replay))") }
        if score.failures.count > 20 { XCTFail("… and \(score.failures.count - 20) more failures (\(replay))") }
        guard daemon.isRunning else { return XCTFail("the daemon died (\(replay))") }
        XCTAssertGreaterThanOrEqual(sent, min(callLimit, 1_000), "too few calls in \(Int(Self.timeBudget)) s (\(replay))")

        // Flat: descriptors and memory, after the daemon had a moment to finish loading.
        Thread.sleep(forTimeInterval: 0.3)
        let after = try ProcessFacts.openDescriptors(of: daemon.pid)
        let rssAfter = try ProcessFacts.residentKilobytes(of: daemon.pid)
        print("BusFuzzTests: open descriptors \(before) → \(after), VmRSS \(rssBefore) → \(rssAfter) KiB")
        XCTAssertLessThanOrEqual(after, before + Self.descriptorSlack,
                                 "descriptors \(before) → \(after) (\(replay)):\n"
                                    + ProcessFacts.descriptorTargets(of: daemon.pid).joined(separator: "\n"))
        // Under AddressSanitizer freed memory sits in its quarantine (256 MiB), so resident
        // memory says nothing there; the plain and ThreadSanitizer runs check it.
        if ProcessInfo.processInfo.environment["AUBADE_SANITIZER"] != "address" {
            XCTAssertLessThanOrEqual(rssAfter, rssBefore + Self.memorySlackKiB, "VmRSS \(rssBefore) → \(rssAfter) KiB (\(replay))")
        }

        // And it still plays a real file.
        try assertPlays(client, replay: replay)
    }

    /// `file:///`, the whole file system, as a URI for AddTrack: the loader walks every folder
    /// (/proc and /sys included) and answers when done — about 10 s here. Not in the random
    /// mix, which must stay within its time bound: here on its own, with the bus watched meanwhile.
    func testAddTrackOfTheWholeFileSystemIsAnsweredWhileTheBusStaysServed() throws {
        let daemon = try startPlaying([fixtures.long])
        let client = try BusClient()
        let watcher = try BusClient(label: "aubade.tests.watcher")
        final class Answer: @unchecked Sendable {
            let lock = NSLock()
            var outcome: BusClient.Outcome?
            var seconds = 0.0
        }
        let answer = Answer()
        try client.callAsync(path: "/org/mpris/MediaPlayer2", interface: "org.mpris.MediaPlayer2.TrackList", member: "AddTrack",
                             [.string("file:///"), .objectPath(Self.noTrack), .boolean(false)],
                             timeoutMilliseconds: 120_000) { outcome, seconds in
            answer.lock.withLock { (answer.outcome, answer.seconds) = (outcome, seconds) }
        }
        var slowestGet = 0.0
        let deadline = Date(timeIntervalSinceNow: 120)
        while answer.lock.withLock({ answer.outcome == nil }), Date() < deadline, daemon.isRunning {
            let (outcome, seconds) = try watcher.call(path: "/org/mpris/MediaPlayer2", interface: "org.freedesktop.DBus.Properties",
                                                      member: "Get", [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")])
            XCTAssertTrue(outcome.isReturn, "Get(PlaybackStatus) while the file system is scanned: \(outcome)")
            slowestGet = max(slowestGet, seconds)
            Thread.sleep(forTimeInterval: 0.05)
        }
        let (outcome, seconds) = answer.lock.withLock { (answer.outcome, answer.seconds) }
        print(String(format: "BusFuzzTests: AddTrack(file:///) answered after %.1f s (%@); slowest Get meanwhile %.1f ms",
                     seconds, outcome.map { "\($0)" } ?? "no answer", slowestGet * 1000))
        XCTAssertNotNil(outcome, "AddTrack(file:///) unanswered after 120 s")
        XCTAssertTrue(outcome?.isReply ?? false, "AddTrack(file:///): \(outcome.map { "\($0)" } ?? "none")")
        XCTAssertLessThan(slowestGet, 1, "the bus was not served while the file system was scanned")
        XCTAssertTrue(try client.ping().isReturn)
        XCTAssertEqual(try playbackStatus(), "Playing")
    }

    /// Volume back to 1, OpenUri of a real file, Play: PlaybackStatus must become Playing.
    private func assertPlays(_ client: BusClient, replay: String) throws {
        let path = "/org/mpris/MediaPlayer2"
        _ = try client.call(path: path, interface: "org.freedesktop.DBus.Properties", member: "Set",
                            [.string("org.mpris.MediaPlayer2.Player"), .string("Volume"), .variant(.double(1))])
        let (opened, _) = try client.call(path: path, interface: "org.mpris.MediaPlayer2.Player", member: "OpenUri",
                                          [.string(fixtures.long.absoluteString)], timeoutMilliseconds: 10_000)
        XCTAssertTrue(opened.isReturn, "OpenUri of a real file after the fuzz: \(opened) (\(replay))")
        let (played, _) = try client.call(path: path, interface: "org.mpris.MediaPlayer2.Player", member: "Play")
        XCTAssertTrue(played.isReturn, "Play after the fuzz: \(played) (\(replay))")
        try waitForStatus("Playing", timeout: 5)
    }
}

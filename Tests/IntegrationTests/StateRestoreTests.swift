import Foundation
import XCTest
@testable import TestSupport

/// State that survives: queue, current track, position, volume, LoopStatus and Shuffle are
/// saved to `$XDG_STATE_HOME/aubade/state.json`; `aubade serve` without paths, in the same
/// home, restores them Paused (Seeked emitted) and plays nothing until asked. A kill -9 loses
/// at most a second or two; a corrupt file is kept aside and the daemon starts empty.
final class StateRestoreTests: AubadeTestCase {
    private var restartMonitors: [SignalMonitor] = []

    override func tearDown() {
        for monitor in restartMonitors { monitor.stop() }
        restartMonitors.removeAll()
        super.tearDown()
    }

    /// A monitor of every Seeked and PropertiesChanged on the bus, started before a daemon (so
    /// nothing it sends while starting is missed).
    private func busMonitor() throws -> SignalMonitor {
        let monitor = try SignalMonitor(rules: [
            "type='signal',interface='\(Bus.playerInterface)',member='Seeked'",
            "type='signal',interface='\(Bus.propertiesInterface)',member='PropertiesChanged'",
        ])
        restartMonitors.append(monitor)
        return monitor
    }

    private func assertNothingPlays(_ daemon: Daemon, file: StaticString = #filePath, line: UInt = #line) throws {
        let stream = try Pulse.sinkInput(ofProcess: daemon.pid)
        XCTAssertTrue(stream == nil || stream?.corked == true,
                      "a restored daemon has an uncorked stream before Play: \(stream.map(String.init(describing:)) ?? "")",
                      file: file, line: line)
        let levels = try Pulse.listen(seconds: 0.5)
        XCTAssertTrue(levels.isSilence, "sound before Play after a restore: \(levels)", file: file, line: line)
    }

    // MARK: SIGTERM

    func testRestartAfterSIGTERMRestoresEverythingPaused() throws {
        let home = try makeHome()
        let first = try startDaemon([fixtures.long.path, fixtures.long2.path, fixtures.alpha.path], home: home)
        try waitForStatus("Playing")
        try playerctl("next")
        try waitForTitle("Long Two")
        try playerctl("volume", "0.4")
        try playerctl("loop", "Playlist")
        try playerctl("shuffle", "On")
        try playerctl("position", "20")
        try eventually("position past 21 s") { try position() > 21_000_000 }
        let queueBefore = try queueTitles()
        let saved = try position()
        try terminate(first, with: SIGTERM)
        XCTAssertTrue(FileManager.default.fileExists(atPath: stateFile(in: home).path),
                      "no state.json after SIGTERM in \(stateFile(in: home).deletingLastPathComponent().path)")

        let signals = try busMonitor()
        let second = try startDaemon([], home: home)
        try waitForTitle("Long Two")
        XCTAssertEqual(try playbackStatus(), "Paused")
        XCTAssertEqual(try queueTitles(), queueBefore, "the queue came back different")
        let restored = try position()
        XCTAssertEqual(Double(restored), Double(saved), accuracy: 1_000_000,
                       "Position \(restored) µs after the restart, \(saved) µs before SIGTERM")
        XCTAssertEqual(try playerProperty("Volume").double ?? -1, 0.4, accuracy: 0.001)
        XCTAssertEqual(try playerProperty("LoopStatus"), .string("Playlist"))
        XCTAssertEqual(try playerProperty("Shuffle"), .boolean(true))
        let seeked = signals.waitForMessage(timeout: 3) { $0.member == "Seeked" && $0.interface == Bus.playerInterface }
        XCTAssertNotNil(seeked, "no Seeked after the restore")
        XCTAssertEqual(Double(seeked?.arguments.first?.int64 ?? 0), Double(saved), accuracy: 1_000_000,
                       "Seeked: \(seeked.map(String.init(describing:)) ?? "none")")

        try assertNothingPlays(second)
        Thread.sleep(forTimeInterval: 0.5)
        XCTAssertEqual(Double(try position()), Double(restored), accuracy: 50_000, "the position moves while Paused")

        try playerctl("play")
        try waitForStatus("Playing")
        try eventually("sound after Play") { try Pulse.listen(seconds: 0.3).isSound }
        XCTAssertGreaterThanOrEqual(try position(), restored, "playing did not go on from the restored position")
    }

    func testRestoreAfterStopKeepsTheQueue() throws {
        let home = try makeHome()
        let first = try startDaemon([fixtures.long.path, fixtures.long2.path], home: home)
        try waitForStatus("Playing")
        try playerctl("pause")
        try waitForStatus("Paused")
        let ids = try queueTitles()
        try terminate(first, with: SIGINT)
        let second = try startDaemon([], home: home)
        XCTAssertEqual(try queueTitles(), ids)
        XCTAssertEqual(try playbackStatus(), "Paused")
        try assertNothingPlays(second)
    }

    func testStartingWithPathsPlaysThoseInsteadOfTheSavedQueue() throws {
        let home = try makeHome()
        let first = try startDaemon([fixtures.long.path], home: home)
        try waitForStatus("Playing")
        try terminate(first)
        try startDaemon([fixtures.alpha.path], home: home)
        try waitForTitle("Alpha")
        XCTAssertEqual(try queueTitles(), ["Alpha"])
        try waitForStatus("Playing")
    }

    // MARK: kill -9

    func testRestartAfterKill9LosesAtMostASecondOrTwo() throws {
        let home = try makeHome()
        let first = try startDaemon([fixtures.long.path, fixtures.long2.path], home: home)
        try waitForStatus("Playing")
        try playerctl("position", "10")
        try playerctl("volume", "0.6")
        // Play on for a while so the periodic save has run more than once, and kill late in a
        // second of playing (a save once a second, on whole seconds, is then ~0.9 s behind).
        try eventually("position past 14.9 s", timeout: 10) { try position() > 14_900_000 }
        let before = try position()
        try terminate(first, with: SIGKILL)

        let signals = try busMonitor()
        let second = try startDaemon([], home: home)
        try waitForTitle("Long One")
        XCTAssertEqual(try playbackStatus(), "Paused")
        let restored = try position()
        let lost = Double(before - restored) / 1e6
        print(String(format: "kill -9 at %.2f s, restored at %.2f s: %.2f s lost", Double(before) / 1e6, Double(restored) / 1e6, lost))
        XCTAssertLessThanOrEqual(lost, 2.0, "more than 2 s lost: killed at \(before) µs, restored \(restored) µs")
        XCTAssertGreaterThanOrEqual(lost, -0.5, "restored past where it was killed: \(before) → \(restored)")
        XCTAssertEqual(try playerProperty("Volume").double ?? -1, 0.6, accuracy: 0.001)
        XCTAssertEqual(try queueTitles(), ["Long One", "Long Two"])
        XCTAssertNotNil(signals.waitForMessage(timeout: 3) { $0.member == "Seeked" }, "no Seeked after the restore")
        try assertNothingPlays(second)
    }

    func testKill9RightAfterAnEditKeepsTheEdit() throws {
        let home = try makeHome()
        let first = try startDaemon([fixtures.long.path], home: home)
        try waitForStatus("Playing")
        try addTrack(fixtures.alpha, after: try tracks()[0])
        Thread.sleep(forTimeInterval: 1.5)  // "at most the last second"
        try terminate(first, with: SIGKILL)
        try startDaemon([], home: home)
        XCTAssertEqual(try queueTitles(), ["Long One", "Alpha"])
    }

    // MARK: Bad state

    func testACorruptStateFileIsKeptAsideAndTheDaemonStartsEmpty() throws {
        let home = try makeHome()
        let state = stateFile(in: home)
        try FileManager.default.createDirectory(at: state.deletingLastPathComponent(), withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try garbage.write(to: state)

        let daemon = try startDaemon([], home: home)
        XCTAssertEqual(try tracks(), [])
        XCTAssertEqual(try playbackStatus(), "Stopped")
        assertStillAnswers()
        let folder = state.deletingLastPathComponent()
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("state.json.corrupt-") }
        XCTAssertEqual(kept.count, 1, "files in \(folder.path): \((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])")
        if let name = kept.first {
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(name)), garbage, "\(name) is not the original bytes")
        }
        XCTAssertTrue(eventually { daemon.stderrLines.contains { $0.contains("state") && ($0.contains("corrupt") || $0.contains("unreadable")) } },
                      "no log line about the corrupt state file:\n\(daemon.stderrLines.joined(separator: "\n"))")

        // It still works, and a later save does not touch the kept copy.
        try addTrack(fixtures.alpha)
        XCTAssertEqual(try queueTitles(), ["Alpha"])
        if let name = kept.first {
            XCTAssertEqual(try Data(contentsOf: folder.appendingPathComponent(name)), garbage)
        }
    }

    func testAnEmptyStateFileIsNoCrash() throws {
        let home = try makeHome()
        let state = stateFile(in: home)
        try FileManager.default.createDirectory(at: state.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: state)
        let daemon = try startDaemon([], home: home)
        XCTAssertEqual(try tracks(), [])
        XCTAssertTrue(daemon.isRunning)
        assertStillAnswers()
    }

    func testFilesThatVanishedAreDroppedWithALogLine() throws {
        let home = try makeHome()
        let music = try makeDirectory("vanishing")
        let staying = music.appendingPathComponent("staying.mp3")
        let vanishing = music.appendingPathComponent("vanishing.mp3")
        try FileManager.default.copyItem(at: fixtures.long2, to: staying)
        try FileManager.default.copyItem(at: fixtures.long, to: vanishing)
        let first = try startDaemon([vanishing.path, staying.path, fixtures.alpha.path], home: home)
        try waitForStatus("Playing")
        try playerctl("next")
        try waitForTitle("Long Two")
        try terminate(first)
        try FileManager.default.removeItem(at: vanishing)

        let second = try startDaemon([], home: home)
        try waitForTitle("Long Two")
        XCTAssertEqual(try queueTitles(), ["Long Two", "Alpha"])
        XCTAssertNotNil(second.waitForLog(containing: "vanishing.mp3", timeout: 3),
                        "no log line naming the vanished file:\n\(second.stderrLines.joined(separator: "\n"))")
    }
}

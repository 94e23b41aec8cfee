import Foundation
import XCTest
@testable import TestSupport

/// The state file under faults (issue 10): a second instance, the session bus killed, SIGTERM
/// and SIGKILL in the middle of a save, a full disk, and a state file of absurd numbers.
final class StateFaultTests: AubadeTestCase {
    private var mounts: [URL] = []
    private var buses: [Subprocess] = []

    override func tearDown() {
        super.tearDown()   // the daemons first: nothing may hold the mount
        for bus in buses { bus.stop(grace: 3) }
        buses.removeAll()
        for mount in mounts.reversed() {
            if !(try? Shell.run("umount", [mount.path]))!.succeeded {
                _ = try? Shell.run("umount", ["-l", mount.path])
            }
        }
        mounts.removeAll()
    }

    // MARK: Helpers

    private func stateFolder(in home: URL) -> URL { stateFile(in: home).deletingLastPathComponent() }

    private func stateJSON(in home: URL) throws -> [String: Any] {
        let data = try Data(contentsOf: stateFile(in: home))
        guard let json = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw DaemonError("state.json is not an object: \(String(decoding: data.prefix(200), as: UTF8.self))")
        }
        return json
    }

    /// The position the next start restores (position.json when newer and matching).
    private func savedPosition(in home: URL) throws -> Int64 {
        let state = try stateJSON(in: home)
        var position = (state["position"] as? NSNumber)?.int64Value ?? -1
        let positionFile = stateFolder(in: home).appendingPathComponent("position.json")
        if let data = try? Data(contentsOf: positionFile),
           let json = try JSONSerialization.jsonObject(with: data) as? [String: Any],
           ((json["sequence"] as? NSNumber)?.uint64Value ?? 0) > ((state["sequence"] as? NSNumber)?.uint64Value ?? 0),
           json["currentIndex"] as? Int == state["currentIndex"] as? Int {
            position = (json["position"] as? NSNumber)?.int64Value ?? position
        }
        return position
    }

    private func temporaryFiles(in home: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: stateFolder(in: home).path)) ?? []).filter { $0.contains(".tmp-") }
    }

    private func property(_ interface: String, _ name: String, of destination: String) throws -> TypedBusValue {
        let reply = try Bus.call("\(Bus.propertiesInterface).Get", ["string:\(interface)", "string:\(name)"],
                                 destination: destination)
        guard reply.succeeded, let value = reply.values.first else { throw BusError("Get \(name) of \(destination): \(reply)") }
        return value.unwrapped
    }

    private func trackCount(of destination: String) throws -> Int {
        guard case .array(let tracks) = try property(Bus.trackListInterface, "Tracks", of: destination) else { return -1 }
        return tracks.count
    }

    // MARK: A second instance

    /// The bus name taken, the second `aubade serve` serves …aubade.instance<pid>: it must
    /// neither restore the first one's queue nor overwrite it with its own.
    func testASecondInstanceNeitherRestoresNorOverwritesTheSavedState() throws {
        let home = try makeHome()
        let first = try startDaemon([fixtures.long.path, fixtures.long2.path, fixtures.alpha.path], home: home)
        try waitForStatus("Playing")
        try playerctl("pause")
        try waitForStatus("Paused")
        try eventually("the first instance's state saved") {
            ((try? self.stateJSON(in: home))?["tracks"] as? [Any])?.count == 3
        }
        Thread.sleep(forTimeInterval: 1)   // the pause's debounced save is done
        let saved = try Data(contentsOf: stateFile(in: home))

        let second = try startDaemon([], waitingFor: nil, home: home)
        try second.waitForBusName(second.instanceBusName)
        XCTAssertNotNil(second.waitForLog(containing: "belongs to another Aubade", timeout: 5),
                        "no log line about the state in use:\n\(second.stderrLines.joined(separator: "\n"))")
        XCTAssertEqual(try trackCount(of: second.instanceBusName), 0, "the second instance restored the first one's queue")
        let added = try Bus.call("\(Bus.trackListInterface).AddTrack",
                                 ["string:\(fixtures.beta.absoluteString)", "objpath:\(Bus.noTrack)", "boolean:false"],
                                 destination: second.instanceBusName)
        XCTAssertTrue(added.succeeded, "\(added)")
        XCTAssertEqual(try trackCount(of: second.instanceBusName), 1)
        Thread.sleep(forTimeInterval: 1)   // its debounced save would have run
        XCTAssertEqual(second.process.stop(grace: 5), 0)
        XCTAssertEqual(try Data(contentsOf: stateFile(in: home)), saved, "the second instance overwrote the saved state")

        // The first one still owns the state: its queue is what the next start restores.
        try terminate(first)
        try startDaemon([], home: home)
        XCTAssertEqual(try queueTitles(), ["Long One", "Long Two", "Alpha"])
    }

    // MARK: The session bus killed

    /// The daemon's session bus dies while it plays: it saves (synchronously) and exits 1.
    /// A seek just before is not yet saved by the debounce (0.5 s) nor the position timer
    /// (1 s): only the save before exit can have it.
    func testLosingTheSessionBusSavesTheStateBeforeExiting() throws {
        // Its socket not in /tmp (the session.conf default): killed, the bus leaves it behind.
        let (bus, address) = try StandInSystemBus.start()
        buses.append(bus)
        func send(_ member: String, _ arguments: [String]) throws -> CommandResult {
            try Shell.run("dbus-send", ["--bus=\(address)", "--print-reply", "--dest=\(Daemon.busName)", Bus.objectPath,
                                        member] + arguments)
        }
        let home = try makeHome()
        let daemon = try startDaemon([fixtures.long.path, fixtures.long2.path], waitingFor: nil,
                                     environment: ["DBUS_SESSION_BUS_ADDRESS": address], home: home)
        try eventually("Playing on the private bus") {
            try send("\(Bus.propertiesInterface).Get", ["string:\(Bus.playerInterface)", "string:PlaybackStatus"])
                .stdout.contains("\"Playing\"")
        }
        Thread.sleep(forTimeInterval: 1.2)
        let seek = try send("\(Bus.playerInterface).Seek", ["int64:30000000"])
        XCTAssertTrue(seek.succeeded, "\(seek)")
        bus.signal(SIGKILL)

        XCTAssertEqual(daemon.waitForExit(timeout: 10), 1, "aubade should exit 1 when its session bus is gone")
        XCTAssertTrue(daemon.stderrLines.contains { $0.contains("lost the D-Bus session bus; saving the state") },
                      daemon.stderrLines.joined(separator: "\n"))
        let position = try savedPosition(in: home)
        XCTAssertGreaterThanOrEqual(position, 30_000_000, "the seek made just before the bus died was not saved")
        XCTAssertLessThan(position, 36_000_000)
        XCTAssertEqual((try stateJSON(in: home)["tracks"] as? [Any])?.count, 2)
        XCTAssertEqual(temporaryFiles(in: home), [])
    }

    // MARK: Signals in the middle of a save

    /// SIGTERM at moments around the debounced save of a large queue: the file is always whole
    /// and holds the last change; SIGKILL at such moments leaves the old or the new file, never a
    /// torn one, and the next start removes the temporary file left behind.
    func testSignalsInTheMiddleOfASaveLeaveAWholeFile() throws {
        let folder = try QueueFixtures.shared().folderOfTinyFiles(3_000, name: "state-signals")
        let home = try makeHome()
        var shuffle = false
        var daemon = try startDaemon([folder.path], home: home)
        try eventually("3,000 tracks queued", timeout: 60) { try self.tracks().count == 3_000 }
        // Paused, so the queue stays as it is (a track found unplayable would leave it).
        try playerctl("pause")
        for (round, delay) in [0.48, 0.5, 0.52, 0.55, 0.6].enumerated() {
            let queued = try tracks().count
            shuffle.toggle()
            XCTAssertTrue(try Bus.set(Bus.playerInterface, "Shuffle", "boolean:\(shuffle)").succeeded)
            Thread.sleep(forTimeInterval: delay)
            XCTAssertEqual(try terminate(daemon, with: SIGTERM), 0, "round \(round)")
            XCTAssertEqual(try stateJSON(in: home)["shuffle"] as? Bool, shuffle, "round \(round): the last change is lost")
            XCTAssertEqual((try stateJSON(in: home)["tracks"] as? [Any])?.count, queued, "round \(round)")
            XCTAssertEqual(temporaryFiles(in: home), [], "round \(round)")
            daemon = try startDaemon([], home: home)
            XCTAssertEqual(try playerProperty("Shuffle"), .boolean(shuffle), "round \(round)")
        }
        for (round, delay) in [0.5, 0.52, 0.55].enumerated() {
            let before = shuffle
            shuffle.toggle()
            XCTAssertTrue(try Bus.set(Bus.playerInterface, "Shuffle", "boolean:\(shuffle)").succeeded)
            Thread.sleep(forTimeInterval: delay)
            try terminate(daemon, with: SIGKILL)
            let saved = try stateJSON(in: home)["shuffle"] as? Bool
            XCTAssertTrue(saved == before || saved == shuffle, "kill -9 round \(round): \(String(describing: saved))")
            shuffle = saved ?? shuffle
            let savedCount = (try stateJSON(in: home)["tracks"] as? [Any])?.count
            XCTAssertGreaterThan(savedCount ?? 0, 2_990, "kill -9 round \(round)")
            daemon = try startDaemon([], home: home)
            XCTAssertEqual(try tracks().count, savedCount, "kill -9 round \(round)")
            XCTAssertEqual(temporaryFiles(in: home), [], "kill -9 round \(round): a temporary file stayed")
        }
    }

    // MARK: A full disk

    /// XDG_STATE_HOME on a 64 KiB tmpfs, filled up while playing: saves fail with one log line,
    /// the old state stays, and saving resumes by itself when there is room again.
    func testAFullDiskFailsWithOneLogLineKeepsTheOldStateAndRecovers() throws {
        guard getuid() == 0 else { throw XCTSkip("mounting a tmpfs needs root") }
        let home = try makeHome()
        let stateHome = home.appendingPathComponent(".local/state", isDirectory: true)
        try FileManager.default.createDirectory(at: stateHome, withIntermediateDirectories: true)
        let mount = try Shell.run("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", stateHome.path])
        guard mount.succeeded else { throw XCTSkip("cannot mount a tmpfs here: \(mount)") }
        mounts.append(stateHome)

        let daemon = try startDaemon([fixtures.long.path, fixtures.long2.path], home: home)
        try waitForStatus("Playing")
        try playerctl("volume", "0.5")
        try eventually("state.json saved") { (try? self.stateJSON(in: home))?["volume"] as? Double == 0.5 }
        Thread.sleep(forTimeInterval: 1)
        let firstLine = daemon.stderrLines.count
        let filler = stateHome.appendingPathComponent("filler")
        _ = try Shell.run("sh", ["-c", "head -c 1048576 /dev/zero > '\(filler.path)'"])   // fails when full: meant to
        let before = try Data(contentsOf: stateFile(in: home))

        try addTrack(fixtures.alpha)
        // Six seconds of playing: the position alone would be saved six times.
        Thread.sleep(forTimeInterval: 6)
        let failures = daemon.stderrLines.dropFirst(firstLine).filter { $0.contains("cannot save the state") }
        XCTAssertEqual(failures.count, 1, "one line for a failing save, then backoff:\n\(failures.joined(separator: "\n"))")
        XCTAssertTrue(failures.first?.contains("No space left on device") == true, failures.first ?? "")
        XCTAssertEqual(try Data(contentsOf: stateFile(in: home)), before, "the old state.json changed")
        XCTAssertEqual(temporaryFiles(in: home), [], "a failed save left its temporary file on the full disk")
        XCTAssertTrue(daemon.isRunning)

        try FileManager.default.removeItem(at: filler)
        XCTAssertNotNil(daemon.waitForLog(containing: "state saved again", from: firstLine, timeout: 70),
                        daemon.stderrLines.joined(separator: "\n"))
        try eventually("the queue with Alpha saved") { (try self.stateJSON(in: home)["tracks"] as? [Any])?.count == 3 }
        try terminate(daemon)
        XCTAssertEqual((try stateJSON(in: home)["tracks"] as? [Any])?.count, 3)
    }

    // MARK: Absurd numbers

    /// A state file with a position of 9e18 µs and other numbers out of any range (hand-edited,
    /// or damaged): the daemon starts, restores the queue, plays and seeks; no crash loop.
    func testAStateFileOfAbsurdNumbersRestoresAndPlays() throws {
        let home = try makeHome()
        let folder = stateFile(in: home).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let state: [String: Any] = [
            "version": 1, "sequence": 1,
            "tracks": [["path": fixtures.long.path, "title": "Long One", "artists": [], "albumArtists": [], "genres": [],
                        "trackNumber": Int64.max, "discNumber": -7, "length": NSNull()],
                       ["path": fixtures.alpha.path, "title": "Alpha", "artists": [], "albumArtists": [], "genres": [],
                        "length": Int64.max]],
            "currentIndex": 0, "position": 9_000_000_000_000_000_000 as UInt64, "volume": 1e300,
            "loopStatus": "None", "shuffle": false, "playOrder": [0, 1],
        ]
        try JSONSerialization.data(withJSONObject: state).write(to: folder.appendingPathComponent("state.json"))
        let position: [String: Any] = ["version": 1, "sequence": 2, "currentIndex": 0, "trackPath": fixtures.long.path,
                                       "position": Int64.max]
        try JSONSerialization.data(withJSONObject: position).write(to: folder.appendingPathComponent("position.json"))

        let daemon = try startDaemon([], home: home)
        try waitForTitle("Long One")
        XCTAssertEqual(try playbackStatus(), "Paused")
        XCTAssertLessThan(try self.position(), 1_000_000)
        XCTAssertNil(try metadata()["xesam:trackNumber"])
        XCTAssertEqual(try playerProperty("Volume").double ?? -1, 1, accuracy: 0.001)
        try playerctl("play")
        try waitForStatus("Playing")
        try playerctl("position", "10")
        try eventually("playing past 10 s") { try self.position() > 10_000_000 }
        XCTAssertLessThan(try self.position(), 20_000_000)
        try playerctl("next")
        try waitForTitle("Alpha")
        XCTAssertTrue(daemon.isRunning)
        assertStillAnswers()
    }
}

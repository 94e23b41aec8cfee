import Foundation
import XCTest
@testable import TestSupport

/// Clients that make the daemon write more than they read: `listallinfo` of a big library to
/// a client that reads a few bytes a second, and a flood of `status` from one that reads
/// nothing. The daemon's memory stays bounded (its RSS measured before and during), the long
/// answer is written as the client reads it — whole, however long it takes — and the client
/// that never reads is closed at the output cap, while every other client is served at once.
final class MPDHostileLoadTests: MPDDaemonTestCase {
    func testASlowReaderOfAHugeAnswerCostsNoMemoryAndDelaysNoOne() throws {
        let music = try makeDirectory("music")
        // 1,700 songs of about 5 KB each in listallinfo: 9 MB, past the 8 MiB output cap, so an
        // answer kept whole for the reader would close it. Fewer under a sanitizer (its run is
        // for the code paths: everything there is 5–20 times slower).
        let songs = try MPDLibraryFixtures.bigLibrary(in: music, folders: Sanitizer.isOn ? 3 : 17, perFolder: 100)
        // Given a file to play, the daemon does not queue the whole folder at start.
        let served = try startMPD(music: music, songs: songs, arguments: [music.path + "/folder 000 with a name long enough to count/song 0000.mp3"], timeout: 60)
        let bystander = try served.connect()
        // The answer as a fast reader gets it, to compare (and to warm up what it allocates).
        let fast = try served.connect()
        let whole = try fast.command("listallinfo", timeout: Sanitizer.scaled(30))
        XCTAssertEqual(whole.values("file").count, songs)
        let size = whole.rawLines.reduce(0) { $0 + $1.count + 1 }
        let descriptors = try served.openDescriptors()
        let before = try served.residentKilobytes()

        // A reader with a 4 KiB receive buffer that takes 64 bytes every 100 ms.
        let slow = try served.connect(receiveBuffer: 4096)
        try slow.send("listallinfo\n")
        var received: [UInt8] = []
        var peak = before
        var slowest: TimeInterval = 0
        let started = Date()
        while Date().timeIntervalSince(started) < 4 {
            guard let bytes = try slow.readSome(maximum: 64) else { return XCTFail("the slow reader was closed") }
            received += bytes
            Thread.sleep(forTimeInterval: 0.1)
            peak = max(peak, try served.residentKilobytes())
            let asked = Date()
            XCTAssertNotNil(try bystander.command("status").value("state"))
            slowest = max(slowest, Date().timeIntervalSince(asked))
        }
        print("slow reader: \(size) bytes of listallinfo (\(songs) songs); resident memory \(before) KiB before, at most \(peak) KiB while it read \(received.count) bytes in 4 s; slowest status meanwhile \(Int(slowest * 1000)) ms")
        if Sanitizer.judgesMemory { XCTAssertLessThan(peak - before, 4 * 1024, "resident memory grew by \(peak - before) KiB for a \(size)-byte answer") }
        if Sanitizer.judgesTime { XCTAssertLessThan(slowest, 0.5, "status took \(slowest) s beside the slow reader") }
        assertStillServes(served)

        // Then it reads fast: the rest comes, whole and in order, and the connection goes on.
        while let line = try slow.readLine(timeout: Sanitizer.scaled(30)) {
            received += line + [0x0A]
            if line == Array("OK".utf8) { break }
        }
        XCTAssertEqual(received.count, size, "the slowly read answer's size")
        XCTAssertEqual(received.split(separator: 0x0A).map(Array.init), whole.rawLines, "the slowly read answer")
        XCTAssertTrue(try slow.command("ping").isOK)
        let after = try served.residentKilobytes()
        print("slow reader: resident memory \(after) KiB after the answer")
        for client in [slow, fast, bystander] { client.close() }
        assertDescriptorsBack(served, to: descriptors)
    }

    func testAClientThatNeverReadsIsClosedAtTheOutputCap() throws {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.smallLibrary(in: music)
        let served = try startMPD(music: music, songs: songs)
        let bystander = try served.connect()
        let descriptors = try served.openDescriptors()
        let before = try served.residentKilobytes()

        let flood = try served.connect(receiveBuffer: 4096)
        let statuses = Array(String(repeating: "status\n", count: 1000).utf8)
        var sent = 0
        var peak = before
        var closed = false
        let started = Date()
        while Date().timeIntervalSince(started) < Sanitizer.scaled(20) {
            // Never a read: the answers pile up on the daemon's side.
            guard let taken = flood.sendWhatFits(statuses) else { closed = true; break }
            if taken == 0 { Thread.sleep(forTimeInterval: 0.01) }
            sent += taken
            peak = max(peak, try served.residentKilobytes())
            XCTAssertTrue(try bystander.command("ping").isOK)
        }
        print("flood of status: \(sent) bytes sent (\(sent / 7) commands) before the close; resident memory \(before) → at most \(peak) KiB")
        XCTAssertTrue(closed, "a client that reads nothing is closed at the output cap")
        XCTAssertNotNil(served.daemon.waitForLog(containing: "does not read its answers"))
        // 8 MiB of output waiting, and the input kept while it waits: 16 MiB is generous.
        if Sanitizer.judgesMemory { XCTAssertLessThan(peak - before, 16 * 1024, "resident memory grew by \(peak - before) KiB") }
        assertStillServes(served)
        bystander.close()
        assertDescriptorsBack(served, to: descriptors)
    }
    /// One client's long work — a command list of 1 MB of cheap commands, a list of thousands
    /// of regular-expression searches, a stream of single lines sent faster than they are
    /// answered — is done in turns: every other client is answered meanwhile, in milliseconds.
    func testALongCommandListDoesNotHoldUpTheOthers() throws {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.bigLibrary(in: music, folders: 1, perFolder: Sanitizer.isOn ? 50 : 200)
        let served = try startMPD(music: music, songs: songs, arguments: [music.path + "/folder 000 with a name long enough to count/song 0000.mp3"])
        let bystander = try served.connect()
        let descriptors = try served.openDescriptors()
        let scale = Sanitizer.isOn ? 5 : 1
        // Each answer is nothing but OKs: one for a list, one a line otherwise.
        let works: [(String, [UInt8], oks: Int)] = [
            ("a list of 200,000 pings", Array(("command_list_begin\n" + String(repeating: "ping\n", count: 200_000 / scale)
                                               + "command_list_end\n").utf8), 1),
            ("a list of 2,000 regex searches", Array(("command_list_begin\n"
                                                       + String(repeating: "find \"(title =~ 'T.*x')\"\n", count: 2_000 / scale)
                                                        + "command_list_end\n").utf8), 1),
            ("100,000 pings, one a line", Array(String(repeating: "ping\n", count: 100_000 / scale).utf8), 100_000 / scale),
        ]
        for (what, bytes, oks) in works {
            let busy = try served.connect()
            // Sent from a thread of its own: the daemon reads it only as fast as it works.
            let sender = Thread { try? busy.send(bytes, timeout: Sanitizer.scaled(120)) }
            sender.start()
            var slowest: TimeInterval = 0
            var asked = 0
            let started = Date()
            var answered = false
            var received = 0
            while Date().timeIntervalSince(started) < Sanitizer.scaled(120) {
                let ask = Date()
                XCTAssertTrue(try bystander.command("ping", timeout: Sanitizer.scaled(60)).isOK, what)
                slowest = max(slowest, Date().timeIntervalSince(ask))
                asked += 1
                // The busy client's answers, as they come.
                do {
                    guard let bytes = try busy.readSome(maximum: 1 << 20, timeout: 0.01) else {
                        XCTFail("\(what): the busy client was closed")
                        break
                    }
                    received += bytes.count
                } catch MPDTestError.timedOut {}
                if received == 3 * oks { answered = true; break }
            }
            let took = Date().timeIntervalSince(started)
            print("\(what): done in \(String(format: "%.2f", took)) s; \(asked) pings of another client meanwhile, the slowest \(Int(slowest * 1000)) ms")
            XCTAssertTrue(answered, "\(what) was not done in time")
            // Before turns: 0.9 to 2.4 s for these loads; a loaded machine may add a few tenths.
            if Sanitizer.judgesTime { XCTAssertLessThan(slowest, 0.5, "\(what): another client waited \(slowest) s for a ping") }
            busy.close()
        }
        bystander.close()
        assertStillServes(served)
        assertDescriptorsBack(served, to: descriptors)
    }
    /// `update` by the thousand: at most 32 wait (mpd's update queue), the rest are refused,
    /// and SIGTERM stops the daemon at once rather than after every queued scan of the library.
    func testThousandsOfUpdatesAreCappedAndDoNotDelayTheStop() throws {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.bigLibrary(in: music, folders: Sanitizer.isOn ? 1 : 6, perFolder: 100)
        let served = try startMPD(music: music, songs: songs, arguments: [music.path + "/folder 000 with a name long enough to count/song 0000.mp3"], timeout: 60)
        let client = try served.connect()
        let list = try client.command("command_list_begin\n" + String(repeating: "update\n", count: 30_000) + "command_list_end",
                                      timeout: Sanitizer.scaled(10))
        let accepted = list.values("updating_db").count
        XCTAssertTrue(list.ack?.hasPrefix("ACK [54@\(accepted)] {update} ") == true, "\(list.ack ?? "OK")")
        XCTAssertLessThanOrEqual(accepted, 40, "jobs accepted at once")
        try client.send(String(repeating: "update\n", count: 1000))
        var refused = 0
        for _ in 0..<1000 where try client.readAnswer().ack != nil { refused += 1 }
        print("updates: \(accepted) of a list of 30,000 accepted; \(1000 - refused) of 1,000 more")
        XCTAssertGreaterThan(refused, 900)
        assertStillServes(served)
        let wall = Date()
        XCTAssertEqual(served.daemon.process.stop(signal: SIGTERM, grace: Sanitizer.scaled(10)), 0)
        let took = Date().timeIntervalSince(wall)
        print("updates: SIGTERM with the update queue full: exited in \(String(format: "%.2f", took)) s")
        // Before the cap: 25 minutes. Now one update at most (a loaded machine makes it seconds).
        if Sanitizer.judgesTime { XCTAssertLessThan(took, 5, "SIGTERM waited for the queued updates") }
    }
}

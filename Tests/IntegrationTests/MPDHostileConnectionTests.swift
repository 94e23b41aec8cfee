import Foundation
import XCTest
@testable import TestSupport

/// Connections as a hostile client (or many) makes them: 200 at once against the limit of 100;
/// more than the daemon has descriptors for; a client that says nothing for the timeout, and
/// one idling as long; SIGTERM with clients connected, idling, gathering a list and in the
/// middle of a long answer.
final class MPDHostileConnectionTests: MPDDaemonTestCase {
    private func startSmallLibrary(arguments: [String] = [], home: URL? = nil) throws -> Served {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.smallLibrary(in: music)
        return try startMPD(music: music, songs: songs, arguments: arguments, home: home)
    }

    /// Connects `count` clients without waiting for their greetings, then sorts them: those
    /// greeted (admitted) and the number closed at once (turned away).
    private func connectAtOnce(_ served: Served, count: Int) throws -> (admitted: [MPDTestConnection], turnedAway: Int) {
        let clients = try (0..<count).map { _ in try MPDTestConnection.unix(served.socket, readsGreeting: false) }
        var admitted: [MPDTestConnection] = []
        var turnedAway = 0
        for client in clients {
            if let line = try client.readLine(timeout: Sanitizer.scaled(10)) {
                XCTAssertEqual(String(decoding: line, as: UTF8.self).prefix(7), "OK MPD ")
                admitted.append(client)
            } else {
                turnedAway += 1
            }
        }
        return (admitted, turnedAway)
    }

    func testTwoHundredClientsAtOnceHalfAreTurnedAwayWithOneLogLine() throws {
        let served = try startSmallLibrary()
        let descriptors = try served.openDescriptors()
        let (admitted, turnedAway) = try connectAtOnce(served, count: 200)
        XCTAssertEqual(admitted.count, 100, "mpd-max-clients is 100")
        XCTAssertEqual(turnedAway, 100)
        let limitLines = { served.daemon.stderrLines.filter { $0.contains("clients at once already") } }
        XCTAssertEqual(limitLines().count, 1, "one log line for 100 turned away: \(limitLines())")

        // Those admitted are served, every one, at once.
        let started = Date()
        for (index, client) in admitted.enumerated() {
            XCTAssertTrue(try client.command("ping").isOK, "client \(index)")
        }
        let took = Date().timeIntervalSince(started)
        if Sanitizer.judgesTime { XCTAssertLessThan(took, 1, "100 pings, one per client") }

        // Ten leave: ten newcomers are admitted, the next is turned away again.
        for client in admitted.prefix(10) { client.close() }
        var newcomers: [MPDTestConnection] = []
        try eventually("ten newcomers admitted after ten left (\(newcomers.count) so far)", timeout: Sanitizer.scaled(5)) {
            let (more, _) = try connectAtOnce(served, count: 1)
            newcomers += more
            return newcomers.count == 10
        }
        let (none, away) = try connectAtOnce(served, count: 1)
        XCTAssertEqual(none.count, 0)
        XCTAssertEqual(away, 1)
        XCTAssertLessThanOrEqual(limitLines().count, 2, "one line each time the limit is reached: \(limitLines())")

        for client in admitted + newcomers { client.close() }
        // The daemon sees them leave as it reads their ends: until then newcomers are turned away.
        try eventually("a newcomer admitted after everyone left", timeout: Sanitizer.scaled(5)) {
            try connectAtOnce(served, count: 1).admitted.count == 1
        }
        assertStillServes(served)
        assertDescriptorsBack(served, to: descriptors)
    }

    /// With fewer descriptors than clients (a low `ulimit -n`, or mpd-max-clients set high), the
    /// connections the daemon cannot accept wait in the listen queue: the daemon does not spin
    /// on them, says so once, goes on serving the others and admits the waiting ones as
    /// descriptors free.
    func testRunningOutOfDescriptorsWaitsInsteadOfSpinning() throws {
        let served = try startSmallLibrary()
        let descriptors = try served.openDescriptors()
        // Room for 20 clients, but not the 40 that come.
        let limit = descriptors + 20
        // The soft limit only (raising a hard limit again needs a privilege): the daemon's own,
        // inherited from this process, is put back below.
        var own = rlimit()
        getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &own)
        let prlimit = try Shell.run("prlimit", ["--pid", "\(served.pid)", "--nofile=\(limit):"])
        XCTAssertTrue(prlimit.succeeded, "prlimit: \(prlimit)")

        var clients = try (0..<40).map { _ in try MPDTestConnection.unix(served.socket, readsGreeting: false) }
        var greeted: [MPDTestConnection] = []
        try eventually("20 clients admitted", timeout: Sanitizer.scaled(5)) {
            for client in clients where !greeted.contains(where: { $0 === client }) {
                if (try? client.readLine(timeout: 0.05)) != nil { greeted.append(client) }
            }
            return greeted.count >= 20 - 2
        }
        let cpuBefore = try ProcessFacts.cpuSeconds(of: served.pid)
        let wall = Date()
        // The admitted ones are served meanwhile.
        for client in greeted { XCTAssertTrue(try client.command("ping").isOK) }
        Thread.sleep(forTimeInterval: 1)
        let cpu = try ProcessFacts.cpuSeconds(of: served.pid) - cpuBefore
        let seconds = Date().timeIntervalSince(wall)
        print("out of descriptors: \(cpu) CPU-s in \(seconds) s with \(clients.count - greeted.count) clients waiting")
        XCTAssertLessThan(cpu / seconds, 0.3, "the daemon spins on connections it cannot accept")
        let lines = served.daemon.stderrLines.filter { $0.contains("descriptor") }
        XCTAssertEqual(lines.count, 1, "one log line: \(lines)")

        // Five leave: as many waiting ones get in (the daemon's other descriptors come and go
        // meanwhile — the state file, the sound server's — so not exactly five).
        var waiting = clients.filter { client in !greeted.contains { $0 === client } }
        for client in greeted.prefix(5) { client.close() }
        var admitted: [MPDTestConnection] = []
        try eventually("waiting clients admitted after five left (\(admitted.count) so far)", timeout: Sanitizer.scaled(5)) {
            for client in waiting where (try? client.readLine(timeout: 0.05)) != nil { admitted.append(client) }
            waiting.removeAll { client in admitted.contains { $0 === client } }
            return admitted.count >= 3
        }
        // Descriptors enough again: every one still waiting gets in, within the half-second retry.
        let raised = try Shell.run("prlimit", ["--pid", "\(served.pid)", "--nofile=\(own.rlim_cur):"])
        XCTAssertTrue(raised.succeeded, "prlimit: \(raised)")
        for (index, client) in waiting.enumerated() {
            XCTAssertNotNil(try client.readLine(timeout: Sanitizer.scaled(5)), "waiting client \(index) admitted")
        }
        for client in greeted.dropFirst(5) + admitted + waiting { XCTAssertTrue(try client.command("ping").isOK) }
        for client in clients { client.close() }
        clients.removeAll()
        greeted.removeAll()
        waiting.removeAll()
        assertDescriptorsBack(served, to: descriptors)
        assertStillServes(served)
    }

    /// mpd's connection_timeout (`mpd-timeout`, 60 s by default; 2 s here): a client silent that
    /// long is closed — with a command list half gathered too — but one waiting in idle is not.
    func testASilentClientIsClosedAndAnIdlingOneIsNot() throws {
        let home = try makeHome()
        let folder = home.appendingPathComponent(".config/aubade", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "mpd-timeout = 2\n".write(to: folder.appendingPathComponent("aubade.conf"), atomically: true, encoding: .utf8)
        let served = try startSmallLibrary(home: home)
        let descriptors = try served.openDescriptors()

        let silent = try served.connect()
        let gathering = try served.connect()
        try gathering.send("command_list_begin\nping\n")
        let idling = try served.connect()
        try idling.send("idle\n")
        let talking = try served.connect()
        let started = Date()
        // One that keeps talking stays, whatever the time.
        var closedAfter: TimeInterval?
        while Date().timeIntervalSince(started) < Sanitizer.scaled(6) {
            XCTAssertTrue(try talking.command("ping").isOK)
            if closedAfter == nil, silent.waitForClose(timeout: 0.25).closed {
                closedAfter = Date().timeIntervalSince(started)
            }
            if closedAfter != nil, Date().timeIntervalSince(started) > 4 { break }
        }
        guard let closedAfter else { return XCTFail("the silent client was not closed") }
        XCTAssertGreaterThanOrEqual(closedAfter, 1.9, "closed before its timeout")
        if Sanitizer.judgesTime { XCTAssertLessThan(closedAfter, 3.5, "the timer runs every second for a 2 s timeout") }
        XCTAssertTrue(gathering.waitForClose(timeout: 1).closed, "a list gathered in silence is closed too")
        // The idling one is still there, 4 s later, and ends its idle as usual.
        try idling.send("noidle\n")
        XCTAssertEqual(try idling.readAnswer().lines, ["OK"])
        XCTAssertNotNil(served.daemon.waitForLog(containing: "closed: silent for"))
        for client in [idling, talking] { client.close() }
        assertStillServes(served)
        assertDescriptorsBack(served, to: descriptors)
    }

    /// SIGTERM with clients in every state: the daemon stops at once and cleanly (status 0),
    /// each client sees its connection end, and the socket file goes with it.
    func testSigtermWithClientsInEveryStateStopsCleanly() throws {
        let music = try makeDirectory("music")
        let songs = try MPDLibraryFixtures.bigLibrary(in: music, folders: Sanitizer.isOn ? 2 : 6, perFolder: 100)
        let served = try startMPD(music: music, songs: songs, tcp: true, timeout: 60)
        let connected = try served.connect()
        let idling = try served.connect()
        try idling.send("idle\n")
        let gathering = try served.connect()
        try gathering.send("command_list_begin\nstatus\n")
        let listing = try served.connect(receiveBuffer: 4096)
        try listing.send("listallinfo\n")
        XCTAssertNotNil(try listing.readSome(maximum: 100), "the long answer began")
        let overTCP = try served.connectTCP()
        try overTCP.send("idle player\n")
        Thread.sleep(forTimeInterval: 0.2)  // every command above reached the daemon

        let wall = Date()
        let status = served.daemon.process.stop(signal: SIGTERM, grace: Sanitizer.scaled(5))
        XCTAssertEqual(status, 0, "exit status after SIGTERM; stderr:\n\(served.daemon.stderrLines.joined(separator: "\n"))")
        print("SIGTERM with 5 MPD clients: exited in \(Date().timeIntervalSince(wall)) s")
        for (what, client) in [("connected", connected), ("idling", idling), ("gathering", gathering),
                               ("mid-listallinfo", listing), ("TCP idling", overTCP)] {
            XCTAssertTrue(client.waitForClose(timeout: 2).closed, "the \(what) client's connection did not end")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: served.socket), "the socket file is left behind")
    }
}

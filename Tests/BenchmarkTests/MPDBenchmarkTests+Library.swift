import Foundation
import XCTest
@testable import TestSupport

/// One build of the library (cold, or a start from the database).
struct MPDBuildSample {
    /// From the start of the measure (Aubade's spawn; mpd's `update`) to every song served.
    var ms: Double
    /// Aubade: from its spawn to its MPD port answering.
    var portMs: Double?
    var readBytes: Int
    var cpuSeconds: Double
    var songs: Int
}

extension MPDBenchmarkTests {
    func testLibraryBesideMPD() throws {
        let started = Date()
        let load = loadAverage()
        let (facts, prepared) = try fixture.prepare()
        self.facts = facts
        print("BENCHMARK mpd: \(prepared)")
        var table = MPDTable(part: "1 library", title: String(format: "The library: %d tracks, beside mpd", facts.count),
                             columns: ["Aubade", "mpd"])
        table.notes.append(prepared)
        table.notes.append(String(format: "The library: %d tracks (%.0f MB) in %d folders: %d artists, %d albums of 10 in Artist/Album/NN Title.mp3 "
                                  + "(every 7th a compilation under Various Artists, every 3rd with its album artist written), %d singles in %@/, "
                                  + "8 genres, years 1960–2023; one 1 s MP3 (32 kbit/s mono) copied and tagged with mutagen (ID3v2.4); "
                                  + "one single is a 10-minute MP3 (for the idle wake-up).", facts.count, Double(facts.bytes) / 1e6,
                                  facts.folders, facts.artists, facts.albums, facts.bigFolderFiles, facts.bigFolder))
        if !PageCache.isRoot {
            table.notes.append("NOT root: the page cache could not be dropped; the \"cold\" figures are warm ones.")
        }
        Self.defineRows(&table, facts: facts, wakeups: wakeups, runs: runs)
        let aubade = try MPDBenchServer(name: "Aubade", kind: .aubade(binary: aubadeBinary),
                                        home: work.appendingPathComponent("aubade", isDirectory: true), library: fixture.directory,
                                        register: register)
        let mpd = try MPDBenchServer(name: "mpd", kind: .mpd, home: work.appendingPathComponent("mpd", isDirectory: true),
                                     library: fixture.directory, register: register)
        do {
            try measureColdBuilds(aubade: aubade, mpd: mpd, table: &table)
            try measureQueries(aubade: aubade, mpd: mpd, table: &table)
            for server in [aubade, mpd] {
                table.add("hwmQueries", server.name, server.status("VmHWM").map { Double($0) / 1024 })
                table.add("rssQueries", server.name, server.status("VmRSS").map { Double($0) / 1024 })
            }
            try measureUpdates(aubade: aubade, mpd: mpd, table: &table)
            try measureWakeups(aubade: aubade, mpd: mpd, table: &table)
            try measureStartsFromDatabase(aubade: aubade, mpd: mpd, table: &table)
        } catch {
            table.notes.append("The run stopped early: \(error)")
            table.context = context(started: started, load: load)
            try? table.write()
            throw error
        }
        table.context = context(started: started, load: load)
        try table.write()
    }

    var wakeups: Int {
        Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_MPD_WAKEUPS"] ?? "").flatMap { $0 >= 5 ? $0 : nil } ?? 50
    }

    // MARK: 1. Cold builds

    /// Both servers build the library from nothing, the page cache dropped before each; each
    /// stays up for what follows.
    func measureColdBuilds(aubade: MPDBenchServer, mpd: MPDBenchServer, table: inout MPDTable) throws {
        try aubade.seedEmptyQueue()
        aubade.removeDatabase()
        let sample = try fixture.sample(facts: facts)
        try PageCache.drop(files: [])
        let aubadeResident = MPDLibraryFixture.residentShare(sample)
        let aubadeProcess = try aubade.start()
        let aubadeConnection = try aubade.connect()
        let portOpen = Stamp.now()
        let (songs, end) = try waitForSongs(aubadeConnection, server: aubade)
        let aubadeSample = MPDBuildSample(
            ms: aubadeProcess.started.milliseconds(to: end), portMs: aubadeProcess.started.milliseconds(to: portOpen),
            readBytes: (try? ProcIO.read(aubadeProcess.pid).readBytes) ?? 0, cpuSeconds: aubade.cpuSeconds ?? 0, songs: songs)
        print(String(format: "BENCHMARK mpd: Aubade cold: %d songs in %.0f ms (port open at %.0f ms), %.1f s CPU, %.0f MB read",
                     songs, aubadeSample.ms, aubadeSample.portMs ?? 0, aubadeSample.cpuSeconds, Double(aubadeSample.readBytes) / 1e6))
        record(aubadeSample, for: aubade, into: &table)
        // Its database is saved a few seconds after the scan; the folders get their watches.
        waitQuiet(aubade)

        try mpd.makeEmptyDatabase()
        try mpd.start()
        let mpdConnection = try mpd.connect()
        if let job = try mpdConnection.ok("status").fields["updating_db"] {
            throw DaemonError("mpd updates by itself (job \(job)) although it loaded an empty database")
        }
        waitQuiet(mpd)
        try PageCache.drop(files: [])
        let mpdResident = MPDLibraryFixture.residentShare(sample)
        let before = try ProcIO.read(mpd.process!.pid)
        let cpuBefore = mpd.cpuSeconds ?? 0
        let (updateMs, _) = try timedUpdate(mpdConnection, uri: nil, timeout: 3600)
        let mpdSongs = Int(try mpdConnection.ok("stats").fields["songs"] ?? "") ?? 0
        let mpdSample = MPDBuildSample(ms: updateMs, portMs: nil, readBytes: (try ProcIO.read(mpd.process!.pid) - before).readBytes,
                                       cpuSeconds: (mpd.cpuSeconds ?? 0) - cpuBefore, songs: mpdSongs)
        print(String(format: "BENCHMARK mpd: mpd cold update: %d songs in %.0f ms, %.1f s CPU, %.0f MB read",
                     mpdSongs, mpdSample.ms, mpdSample.cpuSeconds, Double(mpdSample.readBytes) / 1e6))
        record(mpdSample, for: mpd, into: &table)
        waitQuiet(mpd)
        table.notes.append(String(format: "Cold: after each drop, %.1f %% (before Aubade's build) and %.1f %% (before mpd's) of the "
                                  + "pages of every 100th track were still in the page cache (mincore).",
                                  aubadeResident * 100, mpdResident * 100))
    }

    private func record(_ sample: MPDBuildSample, for server: MPDBenchServer, into table: inout MPDTable) {
        table.add("cold", server.name, sample.ms / 1000)
        var note = "\(sample.songs) songs"
        if let port = sample.portMs { note += String(format: "; its MPD port answered %.2f s after the start", port / 1000) }
        table.note("cold", server.name, note)
        table.add("coldCPU", server.name, sample.cpuSeconds)
        table.add("coldRead", server.name, Double(sample.readBytes) / 1e6)
        table.add("hwmBuilt", server.name, server.status("VmHWM").map { Double($0) / 1024 })
        if sample.songs != facts.count {
            table.notes.append("\(server.name) counted \(sample.songs) songs of \(facts.count) after its build.")
        }
    }

    /// `stats` until it counts every song, waiting in `idle database` between: the song count
    /// and when the last `changed: database` came (or the first `stats`, if it was all there).
    /// A change that leaves it short is waited on for 120 s more, then taken as the end.
    func waitForSongs(_ connection: MPDBenchConnection, server: MPDBenchServer) throws -> (Int, Stamp) {
        var answer = try connection.ok("stats")
        var songs = Int(answer.fields["songs"] ?? "") ?? 0
        var end = answer.at
        var waited = false
        while songs < facts.count {
            let idle = try connection.command("idle database", timeout: waited ? 120 : 3600)
            guard idle.end == .ok else { throw DaemonError("\(server.name): idle database: \(idle.end)") }
            end = idle.at
            waited = true
            answer = try connection.ok("stats")
            songs = Int(answer.fields["songs"] ?? "") ?? 0
        }
        return (songs, end)
    }

    /// Waits until the server's CPU time stops growing for a second (at most `timeout`); the
    /// seconds waited.
    @discardableResult
    func waitQuiet(_ server: MPDBenchServer, timeout: TimeInterval = 60) -> Double {
        let start = Date()
        var last = server.cpuSeconds ?? 0
        var quietSince = Date()
        while Date().timeIntervalSince(start) < timeout {
            Thread.sleep(forTimeInterval: 0.2)
            let now = server.cpuSeconds ?? 0
            if now > last + 0.005 {
                last = now
                quietSince = Date()
            } else if Date().timeIntervalSince(quietSince) >= 1 {
                break
            }
        }
        return Date().timeIntervalSince(start)
    }

    // MARK: Starts from the database

    /// Each server stopped and started again from its database, the page cache dropped: start
    /// → `stats` counting every song (mpd reads its whole database before it serves; Aubade
    /// serves its saved database at once, then checks every file against the disk).
    func measureStartsFromDatabase(aubade: MPDBenchServer, mpd: MPDBenchServer, table: inout MPDTable) throws {
        for server in [aubade, mpd] {
            server.stop()
            guard FileManager.default.fileExists(atPath: server.databaseFile.path) else {
                table.note("warm", server.name, "no database saved at \(server.databaseFile.path)")
                continue
            }
            try PageCache.drop(files: [])
            let process = try server.start()
            let connection = try server.connect()
            let (songs, end) = try waitForSongs(connection, server: server)
            table.add("warm", server.name, process.started.milliseconds(to: end))
            if songs != facts.count { table.note("warm", server.name, "\(songs) songs") }
            waitQuiet(server, timeout: 300)
            if server.isAubade {
                // Quiet for a second at the end of the wait: the check ended about then.
                table.add("warmChecked", server.name, max(0, process.started.milliseconds(to: Stamp.now()) / 1000 - 1))
            }
            table.add("warmHWM", server.name, server.status("VmHWM").map { Double($0) / 1024 })
            server.stop()
        }
    }
}

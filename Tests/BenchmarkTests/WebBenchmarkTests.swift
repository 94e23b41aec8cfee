import Foundation
import XCTest
@testable import TestSupport

/// The web benchmark (issue 37), run by `make bench BENCH=web` on PulseAudio (skipped unless
/// `AUBADE_BENCH=1`): Aubade's page (the binary in `AUBADE_BINARY`, the release one in `make
/// bench`) beside Iris on Mopidy (Debian's mopidy 3.4 + mopidy-local + mopidy-mpris, Iris from
/// PyPI: scripts/install-deps --bench), both serving the same generated library
/// (`WebLibraryFixture`: 2,000 albums of 10 tracks, 3 of 4 with a cover), one server at a time
/// on a free port of 127.0.0.1, measured in the same run by `Tests/TestSupport/Scripts/web_bench.py`
/// in headless Chromium as a phone (390×844, ratio 3): page load to the first cover and to the
/// first screen of covers with an empty cache and with a warm one, the bytes received for it,
/// search from the last key to the results, `playerctl play-pause` to the page showing it, and
/// the server's CPU and memory idle with no page and with the page open
/// (`AUBADE_BENCH_RUNS` repetitions, default 5; `AUBADE_BENCH_WEB_IDLE_SECONDS`, default 30).
/// Then Aubade without its web front-end (`--http-address none`) on the same library and
/// database, idle: what the page costs when no one uses it.
/// Mopidy's library is built first with `mopidy local scan` (timed); Aubade scans at its start
/// (timed to all albums served). Prints `BENCHMARK web …` lines; writes `web.json` and `web.md`.
/// A benchmark, not a test: it fails only when it cannot measure.
final class WebBenchmarkTests: XCTestCase {
    var work: URL!
    var aubadeBinary = ""
    var live: [Spawned] = []
    var runs = 5
    var idleSeconds = 30

    override func setUpWithError() throws {
        try super.setUpWithError()
        guard ProcessInfo.processInfo.environment["AUBADE_BENCH"] == "1" else {
            throw XCTSkip("a benchmark: run it with `make bench BENCH=web` (AUBADE_BENCH=1)")
        }
        try AudioSession.require()
        if try Bus.nameHasOwner(Daemon.busName) {
            throw DaemonError("\(Daemon.busName) is already owned: another aubade runs on this bus")
        }
        for tool in ["mopidy", "chromium", "chromedriver", "playerctl"] {
            guard (try? Shell.which(tool)) != nil else { throw DaemonError("\(tool) is not installed (make bench-deps)") }
        }
        let iris = try Shell.run(PythonScript.interpreter, ["-c", "import mopidy_iris"])
        guard iris.succeeded else { throw DaemonError("Iris (Mopidy-Iris) is not installed for /usr/bin/python3 (make bench-deps, as root)") }
        aubadeBinary = try Daemon.binaryPath()
        let environment = ProcessInfo.processInfo.environment
        runs = Int(environment["AUBADE_BENCH_RUNS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 5
        idleSeconds = Int(environment["AUBADE_BENCH_WEB_IDLE_SECONDS"] ?? "").flatMap { $0 > 0 ? $0 : nil } ?? 30
        work = TestRunDirectory.url.appendingPathComponent("web-bench", isDirectory: true)
        try? FileManager.default.removeItem(at: work)
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
    }

    override func tearDown() {
        for process in live.reversed() { process.stop(grace: 20) }
        live.removeAll()
        if let work { try? FileManager.default.removeItem(at: work) }
        super.tearDown()
    }

    /// HOME and the XDG folders of one server, in `home`.
    func environment(home: URL) -> [String: String?] {
        ["HOME": home.path,
         "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
         "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
         "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
         "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
         "LC_ALL": "C.UTF-8"]
    }

    func testPageBesideIris() throws {
        let started = Date()
        let load = loadAverage()
        let albums = Int(ProcessInfo.processInfo.environment["AUBADE_BENCH_WEB_ALBUMS"] ?? "").flatMap { $0 >= 10 ? $0 : nil } ?? 2_000
        let fixture = WebLibraryFixture(directory: BenchmarkFiles.directory.appendingPathComponent("web-library", isDirectory: true),
                                        albums: albums)
        let (facts, prepared) = try fixture.prepare()
        print("BENCHMARK web: \(prepared)")

        let iris = try measureIris(fixture: fixture)
        let aubade = try measureAubade(fixture: fixture)
        let withoutPage = try measureAubadeWithoutWeb(fixture: fixture, home: aubade.home)

        var table = MPDTable(part: "1 page", title: String(format: "The page beside Iris on Mopidy, %d tracks in %d albums", facts.count, facts.albums),
                             columns: ["Aubade", "Iris"])
        table.file = "web"
        table.context = context(started: started, load: load)
        table.notes.append(prepared)
        table.notes.append(String(format: "The library: %d tracks (%.0f MB), %d albums of 10 by %d album artists in Artist/Album/NN Title.mp3, "
                                  + "1 s each (one of 10 min), ID3v2.4; a 600×600 cover.jpg (60–110 kB) in %d album folders; "
                                  + "\"%@\" in %d titles. Each server alone on the private bus, on 127.0.0.1.",
                                  facts.count, Double(facts.bytes) / 1e6, facts.albums, (facts.albums + 9) / 10, facts.covers,
                                  facts.searchWord, facts.searchMatches))
        table.notes.append("Browser: \(chromiumVersion()) headless (--headless=new), a phone's screen (390×844 CSS pixels, "
                           + "device pixel ratio 3, touch) by chromedriver's mobile emulation, driven by python3-selenium "
                           + "\(moduleVersion("selenium")); \(runs) loads of each kind, \(runs) searches, \(2 * runs) changes; "
                           + "medians (min–max).")
        rows(&table, aubade: aubade.figures, iris: iris.figures, withoutPage: withoutPage)
        table.notes.append(String(format: "Library ready: Mopidy's `mopidy local scan` %.0f s (then Mopidy's start to serving all albums %.1f s); "
                                  + "Aubade's start to serving all albums (its first scan) %.1f s.",
                                  iris.scanSeconds, number(iris.figures["readySeconds"]) ?? -1,
                                  number(aubade.figures["readySeconds"]) ?? -1))
        try table.write(benchmark: "web: Aubade's page beside Iris on Mopidy (issue 37)", heading: "Aubade's page beside Mopidy + Iris")
    }

    // MARK: - The servers

    struct Measured {
        var figures: [String: Any]
        var home: URL
        var scanSeconds: Double = 0
    }

    func measureIris(fixture: WebLibraryFixture) throws -> Measured {
        let home = work.appendingPathComponent("mopidy", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let port = try MPDProtocol.freePort()
        let configuration = home.appendingPathComponent("mopidy.conf")
        // Only what the benchmark needs: the local library, the HTTP server with Iris, MPRIS for
        // playerctl; no MPD server, no file/stream/m3u back-ends; audio to a fake sink that
        // keeps time (sync), Mopidy's own software mixer.
        try """
            [core]
            cache_dir = \(home.path)/cache
            config_dir = \(home.path)/config
            data_dir = \(home.path)/data
            [logging]
            verbosity = 0
            [audio]
            output = fakesink sync=true
            mixer = software
            [local]
            media_dir = \(fixture.directory.path)
            [file]
            enabled = false
            [m3u]
            enabled = false
            [stream]
            enabled = false
            [mpd]
            enabled = false
            [http]
            hostname = 127.0.0.1
            port = \(port)
            [mpris]
            enabled = true
            bus_type = session
            [iris]
            enabled = true

            """.write(to: configuration, atomically: true, encoding: .utf8)
        let scanStarted = Date()
        let scan = try Shell.run("mopidy", ["--config", configuration.path, "local", "scan"], environment: environment(home: home),
                                 timeout: 3600)
        guard scan.succeeded else { throw DaemonError("mopidy local scan: \(scan)") }
        let scanSeconds = Date().timeIntervalSince(scanStarted)
        print(String(format: "BENCHMARK web: mopidy local scan of the library: %.0f s", scanSeconds))
        let mopidy = try Spawned("mopidy", ["--config", configuration.path], environment: environment(home: home),
                                 logPath: home.appendingPathComponent("mopidy.log").path)
        live.append(mopidy)
        defer { mopidy.stop(grace: 20) }
        let figures = try runScript(kind: "iris", port: port, pid: mopidy.pid, player: "mopidy", fixture: fixture, server: mopidy)
        return Measured(figures: figures, home: home, scanSeconds: scanSeconds)
    }

    func measureAubade(fixture: WebLibraryFixture) throws -> Measured {
        let home = work.appendingPathComponent("aubade", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let port = try MPDProtocol.freePort()
        var environment = environment(home: home)
        environment["AUBADE_WEB_ROOT"] = Repository.file("web").path
        let aubade = try Spawned(aubadeBinary, ["serve", "--music-folder", fixture.directory.path, "--http-address", "127.0.0.1",
                                                "--http-port", "\(port)", "--mpd-address", "none"],
                                 environment: environment, logPath: home.appendingPathComponent("aubade.log").path)
        live.append(aubade)
        defer { aubade.stop(grace: 20) }
        let figures = try runScript(kind: "aubade", port: port, pid: aubade.pid, player: "aubade", fixture: fixture, server: aubade)
        return Measured(figures: figures, home: home)
    }

    /// Aubade again on the same HOME (its library database and its saved queue: the long track,
    /// paused), without its web front-end: idle for the same time, as web_bench.py measures.
    func measureAubadeWithoutWeb(fixture: WebLibraryFixture, home: URL) throws -> [String: Double] {
        let aubade = try Spawned(aubadeBinary, ["serve", "--music-folder", fixture.directory.path, "--http-address", "none",
                                                "--mpd-address", "none"],
                                 environment: environment(home: home), logPath: home.appendingPathComponent("aubade-no-web.log").path)
        live.append(aubade)
        defer { aubade.stop(grace: 20) }
        let named = Date(timeIntervalSinceNow: 60)
        while try !Bus.nameHasOwner(Daemon.busName) {
            guard aubade.isRunning, Date() < named else { throw DaemonError("aubade without its web front-end: no bus name: \(aubade.logTail())") }
            Thread.sleep(forTimeInterval: 0.1)
        }
        // Its library loaded from the database and checked against the folder: until its CPU
        // stays still for 3 s (at most 120 s).
        var last = ProcAccounting.cpuTicks(aubade.pid) ?? 0
        var still = 0
        let deadline = Date(timeIntervalSinceNow: 120)
        while still < 3, Date() < deadline {
            Thread.sleep(forTimeInterval: 1)
            let now = ProcAccounting.cpuTicks(aubade.pid) ?? 0
            still = now - last <= 1 ? still + 1 : 0
            last = now
        }
        let before = ProcAccounting.cpuTicks(aubade.pid) ?? 0
        let began = Date()
        Thread.sleep(forTimeInterval: TimeInterval(idleSeconds))
        let seconds = Date().timeIntervalSince(began)
        let after = ProcAccounting.cpuTicks(aubade.pid) ?? 0
        guard aubade.isRunning else { throw DaemonError("aubade without its web front-end ended: \(aubade.logTail())") }
        return ["rssKB": Double(ProcAccounting.statusKilobytes(aubade.pid, "VmRSS") ?? 0),
                "hwmKB": Double(ProcAccounting.statusKilobytes(aubade.pid, "VmHWM") ?? 0),
                "cpuPercent": 100 * Double(after - before) / ProcAccounting.ticksPerSecond / seconds]
    }

    /// web_bench.py against the running server; its JSON.
    func runScript(kind: String, port: UInt16, pid: pid_t, player: String, fixture: WebLibraryFixture, server: Spawned) throws -> [String: Any] {
        let out = work.appendingPathComponent("\(kind).json")
        let logPath = work.appendingPathComponent("\(kind)-web_bench.log").path
        let arguments = try PythonScript.arguments("web_bench", [
            "run", "--kind", kind, "--base", "http://127.0.0.1:\(port)", "--pid", "\(pid)", "--player", player,
            "--library", fixture.manifest.path, "--runs", "\(runs)", "--idle-seconds", "\(idleSeconds)",
            "--work", work.appendingPathComponent("\(kind)-browser", isDirectory: true).path, "--out", out.path])
        let script = try Spawned(PythonScript.interpreter, arguments, logPath: logPath)
        live.append(script)
        let exit = script.waitForExit(timeout: 3600) ?? script.stop(grace: 5)
        let log = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        print(log.split(separator: "\n").map { "BENCHMARK web: \($0)" }.joined(separator: "\n"))
        guard let exit, exit.status == 0 else {
            throw DaemonError("web_bench.py (\(kind)) failed: \(log.suffix(2000)) — server: \(server.logTail())")
        }
        guard server.isRunning else { throw DaemonError("\(kind)'s server ended during the benchmark: \(server.logTail())") }
        let data = try Data(contentsOf: out)
        guard let figures = try JSONSerialization.jsonObject(with: data) as? [String: Any] else { throw DaemonError("\(out.path): not an object") }
        return figures
    }

    // MARK: - The table

    func rows(_ table: inout MPDTable, aubade: [String: Any], iris: [String: Any], withoutPage: [String: Double]) {
        let columns = [("Aubade", aubade), ("Iris", iris)]
        func loads(_ figures: [String: Any], _ which: String) -> [[String: Any]] {
            (figures["loads"] as? [String: Any])?[which] as? [[String: Any]] ?? []
        }
        let loadHow = "A new browser profile: a set-up visit (Iris: its welcome form saved, usage reporting off; Aubade: its page "
            + "opened), then the profile's HTTP cache, code cache, service workers and Cache Storage deleted (IndexedDB and "
            + "localStorage kept: Iris's settings), then the album grid opened in a new browser (Aubade `/#/albums`, Iris "
            + "`/iris/library/albums`)"
        for (which, label, cacheHow) in [("empty", "empty cache", "."),
                                         ("cached", "cached", ", then again in another new browser on the same profile (HTTP "
                                            + "cache, Iris's service worker and its IndexedDB store warm).")] {
            table.row("firstCover-\(which)", "page load → first cover on screen (\(label))", unit: "ms", goal: .atMostColumn("Iris"),
                      how: loadHow + cacheHow + " From navigation start to the first animation frame in which a card on "
                        + "screen shows its cover loaded (Aubade: the card's <img> complete with a size; Iris: the "
                        + "background image's Resource Timing entry complete).")
            table.row("screen-\(which)", "page load → first screen of covers (\(label))", unit: "ms", goal: .atMostColumn("Iris"),
                      how: "The same load, to the first frame in which every card on screen whose album has a cover shows it.")
            table.row("bytes-\(which)", "bytes received for that load (\(label))", unit: "bytes", goal: .atMostColumn("Iris"),
                      how: "Every byte Chromium's net log (--log-net-log) counts received on its sockets to the server's port, "
                        + "headers, WebSocket and event-stream frames included, from navigation until the first screen of "
                        + "covers is complete and nothing new was fetched for 1 s.")
            for (name, figures) in columns {
                let incomplete = loads(figures, which).filter { number($0["screen"]) == nil }
                if !incomplete.isEmpty {
                    let missing = incomplete.compactMap { $0["missing"] }
                        .compactMap { try? JSONSerialization.data(withJSONObject: $0) }
                        .map { String(decoding: $0, as: UTF8.self) }
                    table.note("screen-\(which)", name, "\(incomplete.count) of \(loads(figures, which).count) loads never completed "
                               + "their first screen of covers (60 s), left out")
                    table.notes.append("\(name), \(label): loads whose first screen of covers was not complete within 60 s (left out "
                                       + "of every row of that load), the covers on screen still missing: " + missing.joined(separator: "; "))
                }
                for load in loads(figures, which) where number(load["screen"]) != nil {
                    table.add("firstCover-\(which)", name, number(load["firstCover"]))
                    table.add("screen-\(which)", name, number(load["screen"]))
                    table.add("bytes-\(which)", name, number(load["received"]))
                }
            }
        }
        table.row("search", "search: last key → results shown", unit: "ms", goal: .atMostColumn("Iris"),
                  how: "A freshly loaded search view; the search word typed in lower case, one key every 100 ms; from the "
                    + "last key's keydown to the first animation frame showing result rows that contain it. Aubade searches as "
                    + "you type (150 ms after the last key); Iris searches on Enter, pressed 100 ms after the last letter, "
                    + "and that Enter is its last key.")
        table.row("change", "playerctl play-pause → shown in the page", unit: "ms", goal: .atMostColumn("Iris"),
                  how: "The album grid open, the library's long track alone in the queue; `playerctl -p aubade|mopidy "
                    + "play-pause` (MPRIS; Mopidy's through mopidy-mpris), from just before playerctl starts (wall clock) to "
                    + "the page applying the change (Aubade: `window.aubadeLastChange`, set when a `state` event is applied; "
                    + "Iris: a MutationObserver on its play button's icon), on the page's clock (timeOrigin + now); "
                    + "playing and paused in turn, 1 s apart. playerctl's own start (about 10 ms) is in both.")
        for (name, figures) in columns {
            for search in figures["search"] as? [[String: Any]] ?? [] { table.add("search", name, number(search["ms"])) }
            for change in figures["change"] as? [Any] ?? [] { table.add("change", name, number(change)) }
        }
        let idleHow = "utime + stime of the server and its children (/proc/PID/stat; Aubade's FFmpeg helper is its child) over "
            + "\(idleSeconds) s, 5 s after the last action, paused"
        table.row("cpuPage", "server CPU, idle with the page open", unit: "%", goal: .atMostColumn("Iris"),
                  how: idleHow + ", the album grid open in the browser (after the loads, searches and changes), as % of one core.")
        table.row("cpuNoPage", "server CPU, idle, no page ever opened", unit: "%",
                  how: idleHow + ", before any browser was started (the library served, the long track queued).")
        let noPageMB = number((aubade["idleNoPage"] as? [String: Any])?["rssKB"])
        let slackMB = 4.0
        table.row("rssPage", "server RSS, idle with the page open", unit: "MB",
                  goal: noPageMB.map { .atMost($0 / 1024 + slackMB) },
                  how: "VmRSS (/proc/PID/status) at the end of that idle time, the page open; the goal: Aubade's own RSS "
                    + "before any page was opened plus \(Int(slackMB)) MB.")
        table.row("rssNoPage", "server RSS, idle, no page ever opened", unit: "MB",
                  how: "VmRSS at the end of the idle time before any browser was started (the library served, scanned at this "
                    + "start for Aubade, loaded from `mopidy local scan`'s database for Mopidy).")
        table.row("hwm", "server peak RSS (VmHWM), at the end", unit: "MB",
                  how: "VmHWM at the end of the idle time with the page open: the peak over the whole run (Aubade's includes "
                    + "its first scan of the library).")
        table.row("treeRss", "server RSS with its children, idle with the page open", unit: "MB",
                  how: "VmRSS of the server and every process under it (Aubade's FFmpeg helper, which made the thumbnails).")
        for (name, figures) in columns {
            let page = figures["idlePage"] as? [String: Any] ?? [:]
            let noPage = figures["idleNoPage"] as? [String: Any] ?? [:]
            table.add("cpuPage", name, number(page["cpuPercent"]))
            table.add("cpuNoPage", name, number(noPage["cpuPercent"]))
            table.add("rssPage", name, number(page["rssKB"]).map { $0 / 1024 })
            table.add("rssNoPage", name, number(noPage["rssKB"]).map { $0 / 1024 })
            table.add("hwm", name, number(page["hwmKB"]).map { $0 / 1024 })
            table.add("treeRss", name, number(page["treeRssKB"]).map { $0 / 1024 })
        }
        if let rss = withoutPage["rssKB"], let hwm = withoutPage["hwmKB"], let cpu = withoutPage["cpuPercent"] {
            table.notes.append(String(format: "Aubade without its web front-end (`--http-address none`), started again on the same "
                                      + "HOME (its library database, the long track queued and paused), idle %d s once its CPU was "
                                      + "still: VmRSS %.1f MB, VmHWM %.1f MB, CPU %.3f %% of a core.",
                                      idleSeconds, rss / 1024, hwm / 1024, cpu))
        }
    }

    /// A JSON number as a Double, whether JSONSerialization made it an integer or not.
    func number(_ value: Any?) -> Double? {
        switch value {
        case let number as NSNumber: return number.doubleValue
        case let double as Double: return double
        case let int as Int: return Double(int)
        default: return nil
        }
    }

    // MARK: - Versions

    func context(started: Date, load: String) -> [String] {
        let formatter = ISO8601DateFormatter()
        let binary = ProcessInfo.processInfo.environment["AUBADE_BINARY"].map { _ in "release" } ?? "not AUBADE_BINARY: probably debug"
        let commit = ProcessInfo.processInfo.environment["AUBADE_BENCH_REVISION"].flatMap { $0.isEmpty ? nil : $0 } ?? "?"
        return ["\(formatter.string(from: started)) to \(formatter.string(from: Date())), \(BenchmarkFiles.machine())",
                "load average (1, 5, 15 min): \(load) at the start, \(loadAverage()) at the end",
                "Aubade: \(aubadeBinary) (\(binary)), commit \(commit)",
                "Mopidy \(packageVersion("mopidy")), Mopidy-Local \(packageVersion("mopidy-local")), Mopidy-MPRIS "
                    + "\(packageVersion("mopidy-mpris")) (Debian); Mopidy-Iris \(distributionVersion("Mopidy-Iris")) (PyPI); "
                    + "GStreamer's fakesink for Mopidy's audio, PulseAudio's null sink for Aubade's"]
    }

    func packageVersion(_ package: String) -> String {
        ((try? Shell.run("dpkg-query", ["-W", "-f=${Version}", package]))?.stdout).flatMap { $0.isEmpty ? nil : $0 } ?? "?"
    }

    func distributionVersion(_ name: String) -> String {
        let result = try? Shell.run(PythonScript.interpreter, ["-c", "import importlib.metadata as m; print(m.version('\(name)'))"])
        return result?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    func moduleVersion(_ module: String) -> String {
        let result = try? Shell.run(PythonScript.interpreter, ["-c", "import \(module); print(\(module).__version__)"])
        return result?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) ?? "?"
    }

    func chromiumVersion() -> String {
        ((try? Shell.run("chromium", ["--version"]))?.stdout.trimmingCharacters(in: .whitespacesAndNewlines)).flatMap {
            $0.isEmpty ? nil : $0
        } ?? "Chromium ?"
    }
}

import Foundation
import XCTest

/// Base of the page's suites (`WebPage…Tests`): a daemon serving a music folder to pages on a
/// free HTTP port and to MPD clients on a free TCP port, both on loopback unless a test says
/// otherwise, in a home of the test's own that outlives it (so a restart finds what it
/// remembered: `restart()`); the page's files from this checkout's `web/`; and, when a test
/// asks for it, a real browser (`Browser`: Chromium in a phone's window).
///
/// Nothing is started in `setUp`: each test calls `serve` with its library and address.
class WebPageTestCase: AubadeTestCase {
    private(set) var daemon: Daemon!
    /// The page's port and address (`--http-port`, `--http-address`).
    private(set) var httpPort = 0
    private(set) var httpAddress = "127.0.0.1"
    /// The port MPD clients reach the daemon on (127.0.0.1).
    private(set) var mpdPort = 0
    /// The daemon's HOME (and XDG folders), kept across restarts.
    private(set) var home: URL!
    private(set) var playlistsFolder: URL!
    private var arguments: [String] = []
    private var browserInstance: Browser?

    override func setUpWithError() throws {
        try super.setUpWithError()
        let folder = TestRunDirectory.url.appendingPathComponent("web-\(UUID().uuidString)", isDirectory: true)
        home = folder.appendingPathComponent("home", isDirectory: true)
        playlistsFolder = folder.appendingPathComponent("playlists", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: playlistsFolder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        let failed = (testRun?.failureCount ?? 0) + (testRun?.unexpectedExceptionCount ?? 0) > 0
        if failed, let browserInstance, let page = try? browserInstance.script("return JSON.stringify(\(Browser.pageSummary))") {
            print("--- the page when the test failed: \(page ?? "?")")
        }
        browserInstance?.quit()
        browserInstance = nil
        super.tearDown()
        if let home { try? FileManager.default.removeItem(at: home.deletingLastPathComponent()) }
    }

    /// The page's address as a browser on this machine opens it.
    var pageURL: String { "\(web.base)/" }

    /// The API, as curl reaches it.
    var web: WebClient {
        WebClient(host: httpAddress == "any" ? "127.0.0.1" : httpAddress, port: httpPort,
                  headers: webToken.map { ["Authorization": "Bearer \($0)"] } ?? [:])
    }
    /// The page's token, once `printedPageURL` read it: `web` sends it.
    private(set) var webToken: String?

    /// The browser, started at the first call.
    func browser() throws -> Browser {
        if let browserInstance { return browserInstance }
        let started = try Browser()
        browserInstance = started
        return started
    }

    /// Opens the page (`path`, e.g. `/#/queue`) in the browser and waits until it shows the
    /// daemon's state (its first snapshot applied).
    @discardableResult
    func openPage(_ path: String = "/") throws -> Browser {
        let browser = try browser()
        try browser.open(web.base + path)
        try browser.waitFor("the page's first state", "document.body.dataset.stateVersion !== undefined")
        return browser
    }

    // MARK: The daemon

    /// Starts `aubade serve` on `music` (free ports, another pair if one was taken meanwhile)
    /// and waits until the page and MPD clients are served and `songs` songs are in the library.
    func serve(music: URL, songs: Int, httpAddress: String = "127.0.0.1", scanTimeout: TimeInterval = 20,
               extra: [String] = []) throws {
        self.httpAddress = httpAddress
        var lastLog = ""
        for _ in 0..<3 {
            let http = try Loopback.freePort(), mpd = try Loopback.freePort()
            guard http != mpd else { continue }
            arguments = ["--http-address", httpAddress, "--http-port", String(http),
                         "--mpd-address", "127.0.0.1", "--mpd-port", String(mpd),
                         "--music-folder", music.path, "--playlists-folder", playlistsFolder.path] + extra
            let started = try startServing()
            if let started {
                daemon = started
                httpPort = http
                mpdPort = mpd
                break
            }
            lastLog = daemonLog
        }
        guard daemon != nil else { throw DaemonError("the daemon did not serve the page and MPD on any of 3 pairs of ports:\n\(lastLog)") }
        try waitForLibrary(songs: songs, timeout: scanTimeout)
    }

    /// Stops the daemon by PID and starts it again with the same arguments (ports) and home;
    /// waits until it serves again. The page is left to find it by itself.
    func restart(songs: Int, whileStopped: () throws -> Void = {}) throws {
        daemon.stop()
        XCTAssertFalse(daemon.isRunning, "the daemon (pid \(daemon.pid)) did not stop")
        try whileStopped()
        var started: Daemon?
        // The port is free again once the old process is gone; a moment's wait if the kernel
        // still holds it is "taken": try again.
        try eventually("the daemon serving again on ports \(httpPort) and \(mpdPort)", timeout: Sanitizer.scaled(20)) {
            started = try startServing()
            return started != nil
        }
        daemon = started
        try waitForLibrary(songs: songs, timeout: 20)
    }

    /// Starts the daemon with `arguments` and the test's home; nil (and the daemon stopped)
    /// if a port was taken.
    private func startServing() throws -> Daemon? {
        let started = try startDaemon(arguments, environment: ["AUBADE_WEB_ROOT": Repository.file("web").path], home: home)
        let http = arguments[arguments.firstIndex(of: "--http-port")! + 1], mpd = arguments[arguments.firstIndex(of: "--mpd-port")! + 1]
        var served = (page: false, mpd: false)
        let line = started.process.stderr.waitForLine(from: 0, timeout: Sanitizer.scaled(10)) { line in
            if line.contains("web: the page is served on") && line.contains(":\(http)/") { served.page = true }
            if line.contains("MPD clients served on 127.0.0.1:\(mpd)") { served.mpd = true }
            return (served.page && served.mpd) || line.contains("is taken") || line.contains("web: no page")
        }?.line
        if line != nil, served.page, served.mpd { return started }
        daemonLog = started.stderrLines.joined(separator: "\n")
        started.stop()
        if line == nil || line?.contains("is taken") != true {
            throw DaemonError("the daemon did not serve the page and MPD clients:\n\(daemonLog)")
        }
        return nil
    }
    private var daemonLog = ""

    private func waitForLibrary(songs: Int, timeout: TimeInterval) throws {
        let mpd = try MPDTestClient(port: mpdPort)
        defer { mpd.close() }
        var seen = "?"
        try eventually("the library scanned (\(songs) songs; stats said \(seen))", timeout: Sanitizer.scaled(timeout)) {
            seen = try mpd.run("stats")["songs"] ?? "?"
            let updating = try mpd.run("status")["updating_db"]
            return seen == String(songs) && updating == nil
        }
    }

    // MARK: Beyond loopback

    /// The first IPv4 address of an interface that is up and not loopback (where a phone on the
    /// network finds this machine), or nil when there is none.
    static func lanAddress() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0 else { return nil }
        defer { freeifaddrs(list) }
        var cursor = list
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                  flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0 else { continue }
            var text = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
            var raw = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
            if inet_ntop(AF_INET, &raw, &text, socklen_t(text.count)) != nil {
                return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return nil
    }

    /// What `aubade web` prints for this daemon (same settings, same home): the page's URL
    /// with its token, which `web` then sends.
    func printedPageURL(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let run = try Shell.run(try Daemon.binaryPath(), ["web", "--http-address", httpAddress, "--http-port", String(httpPort)],
                                environment: Daemon.privateHome(home).mapValues { $0 })
        XCTAssertTrue(run.succeeded, "aubade web: \(run)", file: file, line: line)
        guard let url = run.stdout.split(separator: "\n").first.map(String.init), url.hasPrefix("http://"),
              let token = url.components(separatedBy: "?token=").dropFirst().first, !token.isEmpty else {
            throw DaemonError("aubade web printed no URL with a token: \(run)")
        }
        webToken = token
        return url
    }

    // MARK: Clients

    /// `mpc -h 127.0.0.1 -p PORT ARGUMENTS`: fails the test unless it exits 0; its output.
    @discardableResult
    func mpc(_ arguments: String..., file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try Shell.run("mpc", ["-h", "127.0.0.1", "-p", String(mpdPort)] + arguments,
                                   environment: ["LC_ALL": "C.UTF-8"])
        XCTAssertTrue(result.succeeded, "mpc \(arguments.joined(separator: " ")): \(result)", file: file, line: line)
        return result.stdout
    }

    /// The queue's URIs as the API pages it.
    func queueURIs() throws -> [String] {
        let page = try web.object("/api/queue?offset=0&limit=500")
        return (page["items"] as? [[String: Any]] ?? []).compactMap { $0["uri"] as? String }
    }

    /// The state as the API gives it.
    func state() throws -> [String: Any] {
        try web.object("/api/state")
    }

    /// A change through the API, as the page sends it; fails unless it is answered 200.
    func post(_ path: String, _ body: [String: Any], file: StaticString = #filePath, line: UInt = #line) throws {
        let answer = try web.post(path, body)
        XCTAssertEqual(answer.status, 200, "POST \(path) \(body): \(answer)", file: file, line: line)
    }
}

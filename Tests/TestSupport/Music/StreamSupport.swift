import Foundation
import XCTest

/// Music for the internet-radio tests, made once per test run (sox tones, lame CBR 128 kbit/s,
/// no tags: what a station sends), in a folder of its own that `TestHTTPServer` serves.
final class StreamFixtures: Sendable {
    let directory: URL

    /// 5 s of 440 Hz, then 10 s of 660 Hz: the title-timing test's boundary at media time 5 s.
    var toneAThenB: URL { file("a-then-b.mp3") }
    static let boundarySeconds = 5.0
    static let toneAHertz = 440.0
    static let toneBHertz = 660.0
    /// 20 s of 330 Hz: a station's programme (looped by the source).
    var programme: URL { file("programme.mp3") }
    /// 2 s of 330 Hz: what `/icy/short.mp3` sends before the server hangs up.
    var shortProgramme: URL { file("short.mp3") }
    /// A copy of the 60 s "Long One" (tagged, 330 Hz): a podcast episode over HTTP.
    var episode: URL { file("episode.mp3") }

    func file(_ name: String) -> URL { directory.appendingPathComponent(name) }

    private init(directory: URL) { self.directory = directory }

    static func shared() throws -> StreamFixtures { try made.get() }
    private static let made: Result<StreamFixtures, any Error> = Result {
        StreamFixtures(directory: try FixtureCache.folder("stream-music") { try make(in: $0) })
    }

    private static func make(in directory: URL) throws {
        let fixtures = StreamFixtures(directory: directory)
        func sox(_ arguments: [String]) throws {
            let result = try Shell.run("sox", ["-q"] + arguments, timeout: 60)
            guard result.succeeded else { throw DaemonError("sox \(arguments): \(result)") }
        }
        func lame(_ wav: URL, _ mp3: URL) throws {
            let result = try Shell.run("lame", ["--quiet", "--cbr", "-b", "128", wav.path, mp3.path], timeout: 120)
            guard result.succeeded else { throw DaemonError("lame \(mp3.lastPathComponent): \(result)") }
        }
        let tone = ["-r", "44100", "-c", "2", "-b", "16"]
        let a = directory.appendingPathComponent("a.wav")
        let b = directory.appendingPathComponent("b.wav")
        let ab = directory.appendingPathComponent("ab.wav")
        try sox(["-n"] + tone + [a.path, "synth", String(boundarySeconds), "sine", String(Int(toneAHertz)), "vol", "0.5"])
        try sox(["-n"] + tone + [b.path, "synth", "10", "sine", String(Int(toneBHertz)), "vol", "0.5"])
        try sox([a.path, b.path, ab.path])
        try lame(ab, fixtures.toneAThenB)
        let programme = directory.appendingPathComponent("programme.wav")
        try sox(["-n"] + tone + [programme.path, "synth", "20", "sine", "330", "vol", "0.5"])
        try lame(programme, fixtures.programme)
        let short = directory.appendingPathComponent("short.wav")
        try sox(["-n"] + tone + [short.path, "synth", "2", "sine", "330", "vol", "0.5"])
        try lame(short, fixtures.shortProgramme)
        for wav in [a, b, ab, programme, short] { try? FileManager.default.removeItem(at: wav) }
        try FileManager.default.copyItem(at: try TestMusic.shared().long, to: fixtures.episode)
    }
}

/// Base of the internet-radio tests: a real icecast2 with a source client (a station), the test
/// web server (playlists, files, bad servers, HTTPS), and the daemon playing from them on the
/// private sound server. Everything a test starts is stopped by PID after it, and its temporary
/// files removed; the logs of the servers are printed when the test failed.
class StreamTestCase: AudioSessionTestCase {
    private(set) var streamFixtures: StreamFixtures!
    private var icecasts: [IcecastServer] = []
    private var sources: [IcecastSource] = []
    private var webServers: [TestHTTPServer] = []
    private var relays: [TCPRelay] = []

    static let stationName = "Aubade Test FM"
    /// This test's mount: its own on the shared icecast2 (see `startStation`).
    private(set) var mount = "/radio.mp3"

    /// One icecast2 (icecast's default burst and metaint) shared by the tests of a class that
    /// only need a station on the air: each has its own mount and source. Stopping icecast2
    /// takes a second, starting it half a second: 20 tests save half a minute. Tests that
    /// restart or freeze icecast, or need other settings, start their own (`startIcecast`).
    nonisolated(unsafe) private static var sharedIcecast: IcecastServer?
    nonisolated(unsafe) private static var mountCount = 0

    override func setUpWithError() throws {
        try super.setUpWithError()
        streamFixtures = try StreamFixtures.shared()
        Self.mountCount += 1
        mount = "/radio-\(Self.mountCount).mp3"
    }

    override class func tearDown() {
        sharedIcecast?.stop()
        sharedIcecast = nil
        super.tearDown()
    }

    override func tearDown() {
        let failed = (testRun?.failureCount ?? 0) + (testRun?.unexpectedExceptionCount ?? 0) > 0
        super.tearDown()  // the daemons first: no reconnect meets a server going away
        for relay in relays { relay.remove() }
        for source in sources {
            if failed { print("--- source \(source.mount) (pid \(source.pid)):\n\(source.log)") }
            source.stop()
        }
        for server in icecasts {
            if failed { print("--- icecast2 on port \(server.port):\n\(server.log)") }
            server.stop()
        }
        if failed, let shared = Self.sharedIcecast { print("--- the shared icecast2 on port \(shared.port):\n\(shared.log)") }
        for server in webServers {
            if failed {
                print("--- test web server on port \(server.port), requests:\n"
                      + server.requests().joined(separator: "\n") + "\n--- its stderr:\n\(server.log)")
            }
            server.stop()
        }
        sources.removeAll()
        icecasts.removeAll()
        webServers.removeAll()
        relays.removeAll()
    }

    // MARK: Servers

    /// An icecast2 of this test (skipped when icecast2 is missing; a failure under CI).
    func startIcecast(burstSize: Int = 65535, metadataInterval: Int = 16000) throws -> IcecastServer {
        try requireIcecast()
        let server = try IcecastServer(burstSize: burstSize, metadataInterval: metadataInterval)
        icecasts.append(server)
        return server
    }

    /// A source on `server` feeding `file` (the programme by default) to `mount` (this test's), looped.
    func startSource(on server: IcecastServer, mount: String? = nil, file: URL? = nil,
                     titles: [(atSeconds: Double, title: String)] = [],
                     titleCharset: String = "UTF-8") throws -> IcecastSource {
        let source = try server.startSource(mount: mount ?? self.mount, file: file ?? streamFixtures.programme, loop: true,
                                            titles: titles, name: Self.stationName, titleCharset: titleCharset)
        sources.append(source)
        return source
    }

    /// A station on the air: a source on this test's mount of the shared icecast2, or of one
    /// of the test's own (`ownServer`, or other settings than icecast's defaults); its URL.
    func startStation(burstSize: Int = 65535, metadataInterval: Int = 16000, ownServer: Bool = false,
                      titles: [(atSeconds: Double, title: String)] = [(0, "Ann Example - First Song")],
                      file: URL? = nil, titleCharset: String = "UTF-8") throws -> (IcecastServer, IcecastSource, String) {
        let server: IcecastServer
        if ownServer || burstSize != 65535 || metadataInterval != 16000 {
            server = try startIcecast(burstSize: burstSize, metadataInterval: metadataInterval)
        } else if let shared = Self.sharedIcecast, shared.isRunning {
            server = shared
        } else {
            Self.sharedIcecast?.stop()
            Self.sharedIcecast = nil
            try requireIcecast()
            server = try IcecastServer()
            Self.sharedIcecast = server
        }
        let source = try startSource(on: server, file: file, titles: titles, titleCharset: titleCharset)
        return (server, source, server.url(mount: mount))
    }

    /// The test web server serving the stream fixtures' folder.
    func startWebServer(tls: Bool = false) throws -> TestHTTPServer {
        let server = try TestHTTPServer(files: streamFixtures.directory, tls: tls)
        webServers.append(server)
        return server
    }

    private func requireIcecast() throws {
        guard IcecastServer.isInstalled else {
            let message = "\(IcecastServer.executable) not installed (run scripts/install-deps)"
            if !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty { XCTFail(message) }
            throw XCTSkip(message)
        }
    }

    /// A breakable network path to 127.0.0.1:`port` (see `TCPRelay`).
    func startRelay(to port: Int, mode: TCPRelay.Mode = .forward) throws -> TCPRelay {
        let relay = try TCPRelay(to: port, mode: mode)
        relays.append(relay)
        return relay
    }

    /// Keeps `source` (restarted by the test) stopped after it.
    func adopt(_ source: IcecastSource) { sources.append(source) }

    // MARK: The daemon and its stream

    /// `aubade serve ARGUMENTS`, waiting until it owns its name.
    @discardableResult
    func serve(_ arguments: [String], home: URL? = nil) throws -> Daemon {
        try startDaemon(arguments, home: home)
    }

    /// Waits until our sink input is there, uncorked, and the headphones' monitor has sound.
    func waitForMusic(_ daemon: Daemon, _ what: String = "music at the headphones", timeout: TimeInterval = 10,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        try waitForStream(of: daemon, "our uncorked stream (\(what))", timeout: timeout, file: file, line: line) {
            $0.corked == false
        }
        var last = AudioLevels(frames: 0, rms: 0, peak: 0)
        try eventually("\(what) (last: \(last))", timeout: timeout, file: file, line: line) {
            last = try Pulse.listen(seconds: 0.4)
            return last.isSound
        }
    }

    /// Whether the headphones are silent (or our stream is corked / gone) now.
    func assertNoMusic(_ daemon: Daemon, _ context: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let stream = try Pulse.sinkInput(ofProcess: daemon.pid)
        if let stream, stream.corked == false {
            let levels = try Pulse.listen(seconds: 0.4)
            XCTAssertFalse(levels.isSound, "music \(context): \(levels)", file: file, line: line)
        }
    }

    /// org.aubade.AudioSession1.Stream.
    func streamInfo() throws -> [String: TypedBusValue] {
        guard let value = try Bus.get(AudioSessionBus.interface, "Stream").dictionary else {
            throw BusError("Stream is not a{sv}")
        }
        return value
    }

    func streamState() throws -> String? { try streamInfo()["state"]?.string }

    /// Waits until Stream.state is `state`; returns the whole Stream value then.
    @discardableResult
    func waitForStreamState(_ state: String, timeout: TimeInterval = 10,
                            file: StaticString = #filePath, line: UInt = #line) throws -> [String: TypedBusValue] {
        var last: [String: TypedBusValue] = [:]
        try eventually("Stream state \(state) (last: \(last))", timeout: timeout, file: file, line: line) {
            last = try streamInfo()
            return last["state"]?.string == state
        }
        return last
    }

    /// `aubade status`, which must succeed.
    func status(file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try aubade("status")
        XCTAssertEqual(result.status, 0, "aubade status: \(result)", file: file, line: line)
        return result.stdout
    }

    /// A home whose aubade.conf is `text`.
    func home(configuration text: String) throws -> URL {
        let home = try makeHome()
        let folder = home.appendingPathComponent(".config/aubade", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try text.write(to: folder.appendingPathComponent("aubade.conf"), atomically: true, encoding: .utf8)
        return home
    }

    /// The daemon's log lines mentioning `text`.
    func logLines(_ daemon: Daemon, containing text: String) -> [String] {
        daemon.stderrLines.filter { $0.contains(text) }
    }

    /// Waits for the daemon to log a line with every one of `words`.
    @discardableResult
    func waitForLogLine(_ daemon: Daemon, with words: [String], timeout: TimeInterval = 15,
                        file: StaticString = #filePath, line: UInt = #line) -> String? {
        let found = daemon.process.stderr.waitForLine(timeout: timeout) { line in words.allSatisfy { line.contains($0) } }?.line
        if found == nil {
            XCTFail("no log line with \(words) within \(timeout) s; the log:\n" + daemon.stderrLines.suffix(30).joined(separator: "\n"),
                    file: file, line: line)
        }
        return found
    }

    /// The sink input's property (media.title, …) of the daemon's stream, nil without one.
    func streamProperty(_ daemon: Daemon, _ key: String) throws -> String? {
        try Pulse.sinkInput(ofProcess: daemon.pid)?.properties[key]
    }
}

extension IcecastServer {
    /// The icecast ids of the listeners on `mount` now (`/admin/listclients`): each connection
    /// gets a new one, so a reconnect or a fresh fetch shows as a new id.
    func listenerIDs(mount: String) throws -> [Int] {
        let (head, body) = try admin("/admin/listclients?mount=" + Self.queryEscaped(Self.path(of: mount)))
        let text = String(decoding: body, as: UTF8.self)
        if head.status == 400, text.contains("Source does not exist") { return [] }
        guard head.status == 200 else { throw DaemonError("listclients \(mount): \(head.statusLine) \(text)") }
        let pattern = try NSRegularExpression(pattern: "<ID>(\\d+)</ID>")
        return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).flatMap { Int(text[$0]) }
        }
    }
}

extension IcecastSource {
    /// CLOCK_MONOTONIC seconds (the source's log clock) as wall-clock seconds since 1970.
    static func wallTime(ofMonotonic seconds: Double) -> Double {
        Date().timeIntervalSince1970 - (monotonicNow() - seconds)
    }
}

extension MonitoredMessage {
    /// For PropertiesChanged of org.aubade.AudioSession1 that carries `Stream`: its value.
    var streamChange: [String: TypedBusValue]? {
        guard changedInterface == AudioSessionBus.interface else { return nil }
        return changedProperties["Stream"]?.dictionary
    }

    /// For PropertiesChanged of the Player that carries PlaybackStatus: the new status.
    var playbackStatusChange: String? {
        guard changedInterface == Bus.playerInterface else { return nil }
        return changedProperties["PlaybackStatus"]?.string
    }
}

extension SignalMonitor {
    /// The Stream states signalled after `mark`, in order.
    func streamStates(after mark: Int) -> [String] {
        messages.dropFirst(mark).compactMap { $0.streamChange?["state"]?.string }
    }

    /// The PlaybackStatus values signalled after `mark`, in order.
    func playbackStatuses(after mark: Int) -> [String] {
        messages.dropFirst(mark).compactMap(\.playbackStatusChange)
    }
}

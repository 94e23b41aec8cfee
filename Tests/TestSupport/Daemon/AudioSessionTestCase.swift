import Foundation
import XCTest

/// Base of the audio-session tests (route changes, interruptions, `aubade monitor`/`route`):
/// runs on PulseAudio and on PipeWire (`make test` runs these classes on both), and leaves the
/// sinks as `scripts/audio-session` made them after every test, whatever the test unplugged
/// or added.
class AudioSessionTestCase: AubadeTestCase {
    var server: SoundServer { SoundServer.current }

    override func setUpWithError() throws {
        try super.setUpWithError()
        // Its kind only: the name and version pactl gives cost a pactl a test (SoundServerTests
        // checks and prints them).
        print("sound server: \(server.rawValue)")
        // An earlier test of this process (one without --parallel) may have left a sink changed.
        try Pulse.restoreStandardSinks()
    }

    override func tearDown() {
        // The daemons stop first (in super), so that putting the sinks back moves no stream of ours.
        super.tearDown()
        do {
            try Pulse.restoreStandardSinks()
        } catch {
            XCTFail("could not restore the sinks after the test: \(error)")
        }
    }

    // MARK: Our stream

    /// Waits for the daemon's sink input (optionally satisfying `condition`).
    @discardableResult
    func waitForStream(of daemon: Daemon, _ what: String = "our sink input", timeout: TimeInterval = 5,
                       file: StaticString = #filePath, line: UInt = #line,
                       where condition: @escaping (SinkInput) throws -> Bool = { _ in true }) throws -> SinkInput {
        var found: SinkInput?
        try eventually(what, timeout: timeout, file: file, line: line) {
            found = try Pulse.sinkInput(ofProcess: daemon.pid)
            return try found.map(condition) ?? false
        }
        return found!
    }

    /// Starts the daemon on the 60 s track and waits until its stream plays, uncorked, on the
    /// headphones.
    @discardableResult
    func startPlayingOnHeadphones(file: StaticString = #filePath, line: UInt = #line) throws -> (Daemon, SinkInput) {
        let daemon = try startPlaying([fixtures.long])
        let stream = try waitForStream(of: daemon, "our uncorked stream on headphones", file: file, line: line) {
            try $0.corked == false && Pulse.sinkName(of: $0) == "headphones"
        }
        return (daemon, stream)
    }

    // MARK: Holding still

    /// Polls for `duration` that PlaybackStatus stays `status`; fails at the first other value.
    func assertStatusStays(_ status: String, for duration: TimeInterval, _ context: String = "",
                           file: StaticString = #filePath, line: UInt = #line) throws {
        let deadline = Date(timeIntervalSinceNow: duration)
        while Date() < deadline {
            let seen = try playbackStatus()
            guard seen == status else {
                XCTFail("PlaybackStatus became \(seen), expected it to stay \(status) \(context)", file: file, line: line)
                return
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    // MARK: The audio-session interface

    func waitForPauseReason(_ reason: String, timeout: TimeInterval = 5,
                            file: StaticString = #filePath, line: UInt = #line) throws {
        var last = "?"
        try eventually("PauseReason \(reason) (last seen \(last))", timeout: timeout, file: file, line: line) {
            last = try AudioSessionBus.pauseReason()
            return last == reason
        }
    }

    /// Waits for RouteChanged with `reason` after `mark`; fails (listing the audio-session
    /// signals seen) if none comes.
    @discardableResult
    func waitForRouteChange(_ reason: String, on monitor: SignalMonitor, after mark: Int,
                            timeout: TimeInterval = 5,
                            file: StaticString = #filePath, line: UInt = #line) -> (reason: String, previous: Route, current: Route)? {
        let message = monitor.waitForMessage(after: mark, timeout: timeout) { $0.routeChange?.reason == reason }
        guard let change = message?.routeChange else {
            XCTFail("no RouteChanged(\(reason)) within \(timeout) s; audio-session signals seen: "
                    + describeAudioSessionSignals(monitor, after: mark), file: file, line: line)
            return nil
        }
        print("RouteChanged(\(change.reason)) previous [\(change.previous)] current [\(change.current)]")
        return change
    }

    /// The audio-session signals after `mark`, for failure messages.
    func describeAudioSessionSignals(_ monitor: SignalMonitor, after mark: Int) -> String {
        let signals = monitor.messages.dropFirst(mark).filter(\.isAudioSessionSignal)
        if signals.isEmpty { return "none" }
        return signals.map { "\($0.member ?? "?")\($0.arguments.map(\.description))" }.joined(separator: "; ")
    }

    /// The audio-session signals named `member` after `mark`.
    func audioSessionSignals(_ member: String, on monitor: SignalMonitor, after mark: Int) -> [MonitoredMessage] {
        monitor.messages.dropFirst(mark).filter { $0.isAudioSessionSignal && $0.member == member }
    }
}

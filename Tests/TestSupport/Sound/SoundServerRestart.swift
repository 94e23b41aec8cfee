import Foundation

/// One restart of a `PrivateSoundServer` under a daemon playing `SweepTone`, recorded on both
/// sides from the `headphones` monitor, so the audio lost or repeated across it can be read
/// from the sound itself (shared by SoundServerFaultTests and FaultBenchmarkTests).
///
/// 1. `startRecording()`, then start the daemon on the sweep (with `server.daemonEnvironment`);
/// 2. `kill(afterSoundFor:)`: the daemon plays that long (by the recording's clock), then the
///    server is SIGKILLed; the recording ends with it;
/// 3. the outage: the caller looks at the daemon (Paused, PauseReason, Position);
/// 4. `comeBack()`: the server starts again with the same configuration and socket, a new
///    recording flows, and only then the daemon can reach the server (see PrivateSoundServer);
/// 5. `finish(soundAfterComeback:)`: the new recording runs until that much sound arrived, and
///    both are read as places in the track.
final class SoundServerRestart {
    let server: PrivateSoundServer
    private var before: SinkRecorder?
    private var after: SinkRecorder?
    private var beforeData = Data()
    /// When the server was killed and when the daemon could reach it again.
    private(set) var killedAt: Date?
    private(set) var cameBackAt: Date?
    /// Bytes the new recording held when the daemon could reach the server again.
    private var bytesAtComeback = 0

    init(server: PrivateSoundServer) {
        self.server = server
    }

    deinit {
        _ = before?.stop()
        _ = after?.stop()
    }

    /// Starts recording the headphones monitor; returns once audio (silence) flows, so the first
    /// sample the daemon plays is in the recording.
    func startRecording() throws {
        let recorder = try server.record()
        before = recorder
        try recorder.waitForAudio(seconds: 0.2, timeout: 10)
        _ = recorder.lag()
    }

    /// The most audio a kill may take with it unrecorded: parec's own latency (20 ms) and its
    /// reads' jitter.
    static let levelLag = 0.05
    /// How far the recording trailed real time when the server was killed.
    private(set) var lagAtKill: Double?

    /// Waits until the recording holds `seconds` more audio and is level with real time, then
    /// kills the server.
    ///
    /// Level, because a server killed takes with it the audio it played that the recording has
    /// not received (parec drops what it holds when its server dies): a recording behind real
    /// time would read the sound as stopping early, a measure of the recorder, not the daemon.
    func kill(afterSoundFor seconds: Double) throws {
        guard let before else { throw DaemonError("kill before startRecording") }
        let wanted = before.seconds + seconds
        let deadline = Date(timeIntervalSinceNow: seconds + 10)
        var lag = before.lag()
        while before.seconds < wanted || lag > Self.levelLag {
            guard Date() < deadline else {
                throw DaemonError(String(format: "the recording held %.2f of %.2f s, %.3f s behind real time, after %.0f s",
                                         before.seconds, wanted, lag, seconds + 10))
            }
            // Often: each reading may be the one that finds the recording level (see `lag()`).
            Thread.sleep(forTimeInterval: 0.005)
            lag = before.lag()
        }
        lagAtKill = lag
        server.kill()
        killedAt = Date()
        beforeData = before.stop()
        self.before = nil
    }

    /// Starts the server again, waits until its monitor records, then lets the daemon in.
    func comeBack() throws {
        try server.start()
        let recorder = try server.record()
        after = recorder
        try recorder.waitForAudio(seconds: 0.2, timeout: 10)
        bytesAtComeback = recorder.byteCount
        try server.linkDaemonSocket()
        cameBackAt = Date()
    }

    /// Records until `seconds` of sound (not silence) arrived after the comeback or `timeout`
    /// passed, stops, and reads both recordings.
    func finish(soundAfterComeback seconds: Double, timeout: TimeInterval = 15) throws -> Outcome {
        guard let after else { throw DaemonError("finish before comeBack") }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            let reading = SweepReading(after.data)
            if let range = reading.soundingRange(), Double(reading.samples.count - range.lowerBound) / SweepReading.rate >= seconds {
                break
            }
            Thread.sleep(forTimeInterval: 0.1)
        }
        let afterData = after.stop()
        self.after = nil
        return Outcome(before: SweepReading(beforeData), after: SweepReading(afterData),
                       framesAtComeback: bytesAtComeback / 4)
    }

    /// What the two recordings say.
    struct Outcome: CustomStringConvertible {
        let before: SweepReading
        let after: SweepReading
        /// Where the sound stopped as the server died (the end of the first recording).
        let stop: SweepReading.Place?
        /// Where the sound started again (the first loud frame of the second recording).
        let resume: SweepReading.Place?
        /// From the daemon being able to reach the server to its first sound (recording clock).
        let comebackToSound: Double?

        init(before: SweepReading, after: SweepReading, framesAtComeback: Int) {
            self.before = before
            self.after = after
            stop = before.placeWhereSoundEnds()?.place
            let start = after.placeWhereSoundStarts()
            resume = start?.place
            comebackToSound = start.map { Double($0.frame - framesAtComeback) / SweepReading.rate }
        }

        /// Seconds of track between where the sound stopped and where it started again:
        /// positive = skipped (lost), negative = played twice (repeated).
        var lostOrRepeated: Double? {
            guard let stop, let resume else { return nil }
            return resume.trackTime - stop.trackTime
        }

        /// "lost 2.051 s" / "repeated 0.040 s".
        static func describe(_ seconds: Double) -> String {
            String(format: "%@ %.3f s", seconds >= 0 ? "lost" : "repeated", abs(seconds))
        }

        var description: String {
            var parts = [
                "before the kill: \(String(format: "%.2f", before.seconds)) s recorded, "
                    + (stop.map { "sound ends \($0)" } ?? "no readable sound"),
                "after the comeback: \(String(format: "%.2f", after.seconds)) s recorded, "
                    + (resume.map { "sound starts \($0)" } ?? "no readable sound"),
            ]
            if let comebackToSound { parts.append(String(format: "first sound %.2f s after the comeback", comebackToSound)) }
            if let lostOrRepeated { parts.append(Outcome.describe(lostOrRepeated)) }
            return parts.joined(separator: "; ")
        }
    }
}

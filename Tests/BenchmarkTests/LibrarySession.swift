import DBusKit
import Foundation
@testable import TestSupport

/// One queueing of the library folder by Aubade, timed from just before OpenUri was sent.
struct QueueSample {
    var replyMs: Double
    /// To the reply or, if Tracks grew after it, to when it last grew.
    var queueMs: Double
    var queued: Int
    /// /proc/PID/io from before the call to `queueMs`.
    var io: ProcIO
    var firstAudioMs: Double?

    var detail: String {
        String(format: "reply %.0f ms, %ld tracks at %.0f ms, read_bytes %ld, rchar %ld, first audio %@", replyMs, queued, queueMs,
               io.readBytes, io.rchar, firstAudioMs.map { String(format: "%.0f ms", $0) } ?? "none")
    }

    var json: [String: Any] {
        ["replyMs": round3(replyMs), "queueMs": round3(queueMs), "queued": queued, "readBytes": io.readBytes,
         "rchar": io.rchar, "firstAudioMs": firstAudioMs.map(round3) ?? -1]
    }
}

/// Starts Aubade daemons (`aubade serve`, empty queue, HOME and XDG folders under `home`) and
/// has them queue a folder over MPRIS.
struct LibrarySession {
    var binary: String
    var work: URL
    var client: BusClient
    var recorder: MonitorRecorder
    /// Told of every process started (for the tearDown).
    var register: (Spawned) -> Void

    private static let player = "org.mpris.MediaPlayer2.Player"
    private static let trackList = "org.mpris.MediaPlayer2.TrackList"

    /// Starts the daemon and waits until it answers on the bus (and any queue it restored has
    /// stopped growing).
    func start(home: URL) throws -> Spawned {
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let environment: [String: String?] = [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
        ]
        let daemon = try Spawned(binary, ["serve"], environment: environment, logPath: home.appendingPathComponent("aubade.log").path)
        register(daemon)
        let deadline = Date(timeIntervalSinceNow: 60)
        while (try? client.get(Self.player, "PlaybackStatus")) == nil {
            guard daemon.isRunning, Date() < deadline else {
                daemon.stop()
                throw DaemonError("aubade did not come up on the bus within 60 s: \(daemon.logTail())")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        _ = try settle(expected: Int.max, quiet: 2)
        return daemon
    }

    func trackCount() throws -> Int {
        try client.get(Self.trackList, "Tracks").value?.asObjectPathArray?.count ?? 0
    }

    /// Polls Tracks until it holds `expected` ids or has not changed for `quiet` seconds (a build
    /// that answers OpenUri before queueing everything may pause between batches); returns the count
    /// and, if it grew while polled, when it last did and the process's I/O counters then.
    private func settle(expected: Int, quiet: TimeInterval = 5, pid: pid_t? = nil) throws -> (count: Int, at: Stamp?, io: ProcIO?) {
        var count = try trackCount()
        var at: Stamp?
        var io: ProcIO?
        var changed = Date()
        while count < expected, Date().timeIntervalSince(changed) < quiet {
            Thread.sleep(forTimeInterval: 0.02)
            let now = try trackCount()
            if now != count {
                count = now
                at = Stamp.now()
                io = try pid.map(ProcIO.read)
                changed = Date()
            }
        }
        return (count, at, io)
    }

    /// `queued`: how many tracks Tracks gained.
    /// Stop, silence, the cache dropped (`dropping` files; nil: nothing dropped), then
    /// OpenUri of `folder`, timed.
    func queue(_ folder: URL, daemon: Spawned, expected: Int, dropping: [URL]?) throws -> QueueSample {
        _ = try client.call(Self.player, "Stop")
        Thread.sleep(forTimeInterval: 0.7)
        // OpenUri adds to what is queued (a restarted daemon restores its queue): count the new ones.
        let already = try trackCount()
        if let dropping { try PageCache.drop(files: dropping) }
        final class Reply: @unchecked Sendable {
            let condition = NSCondition()
            var outcome: (Result<[DBusKit.DBusValue], DBusError>, Stamp, ProcIO?)?
        }
        let reply = Reply()
        let pid = daemon.pid
        let before = try ProcIO.read(pid)
        let sent = Stamp.now()
        try client.callAsync(Self.player, "OpenUri", [.string(folder.absoluteString)], timeoutMilliseconds: 900_000) { result, _ in
            let at = Stamp.now()
            let io = try? ProcIO.read(pid)
            reply.condition.withLock {
                reply.outcome = (result, at, io)
                reply.condition.broadcast()
            }
        }
        let outcome: (Result<[DBusKit.DBusValue], DBusError>, Stamp, ProcIO?) = try reply.condition.withLock {
            let deadline = Date(timeIntervalSinceNow: 900)
            while reply.outcome == nil {
                if !reply.condition.wait(until: deadline) { throw DaemonError("OpenUri of the library: no answer in 900 s") }
            }
            return reply.outcome!
        }
        if case .failure(let error) = outcome.0 { throw DaemonError("OpenUri of the library failed: \(error)") }
        let replied = outcome.1
        var io = (outcome.2 ?? before) - before
        let settled = try settle(expected: already + expected, pid: pid)
        var end = replied
        if let grew = settled.at, let later = settled.io {
            end = grew
            io = later - before
        }
        let from = recorder.byte(atTime: sent.monotonic &- 20_000_000) ?? 0
        var firstAudio: Double?
        if let loud = recorder.waitForLoud(from: from, timeout: 30), let at = recorder.time(ofByte: loud) {
            firstAudio = (Double(at) - Double(sent.monotonic)) / 1e6
        }
        return QueueSample(replyMs: sent.milliseconds(to: replied), queueMs: sent.milliseconds(to: end), queued: settled.count - already,
                           io: io, firstAudioMs: firstAudio)
    }
}

import Dispatch
import Glibc
public import PlayerCore

/// Where and how the Snapcast output writes: the snapserver stream's pipe and format, and the
/// server's buffer (how long after it reads the music the rooms play it).
public struct SnapcastSettings: Sendable, Equatable {
    public var fifoPath: String
    public var format: PCMFormat
    /// The snapserver's `buffer`, in microseconds.
    public var buffer: Int64

    public init(fifoPath: String, format: PCMFormat = PCMFormat(sampleRate: 48_000, channels: 2), buffer: Int64 = 1_000_000) {
        self.fifoPath = fifoPath
        self.format = format
        self.buffer = buffer
    }

    /// How long after a start the rooms hear it: the buffer and the little kept in the pipe.
    public var latency: Int64 { buffer + Int64(SnapcastEngine.leadSeconds * 1e6) }
}

/// The Snapcast output: the music as 16-bit PCM into a snapserver's `pipe://` source, for
/// every room with a snapclient. Behind the same `AudioSink` seam as the PulseAudio output.
///
/// Paced by Aubade in real time: about `SnapcastEngine.leadSeconds` is kept in the pipe, never
/// more, so what the server has read is known to the byte (`SnapcastPipe.unread`) and a pause
/// or a seek takes back what it has not. `.started` and `.markHeard` come when the rooms hear
/// them: the server's read offset is sampled at every tick and the buffer added
/// (`HeardTimeline`). A pause stops writing; the rooms still play the server's buffer, and
/// `resume` writes again from what was heard at the pause (kept in a history of the last
/// buffer and a second), so the position holds. The server going away (its reader gone from
/// the pipe for 300 ms, or never there) is `serverLost`; it is looked for again twice a second
/// and its return is `serverConnected`.
///
/// Threads: one serial queue ("aubade.snapcast") runs the engine: its 10 ms tick while playing
/// (100 ms otherwise), every write (non-blocking), the conversion, the announcements.
/// Public methods hop onto it with `sync` (it never waits for anything). Decoding stays on the
/// tracks' `DecodeAhead` queues; their wake-ups hop here. `events` is called on the queue.
public final class SnapcastOutput: AudioSink, @unchecked Sendable {
    // @unchecked Sendable: `engine` is touched only on `queue`.
    private let queue = DispatchQueue(label: "aubade.snapcast", qos: .userInteractive)
    private let engine: SnapcastEngine

    public let settings: SnapcastSettings

    public init(settings: SnapcastSettings, serialEvents events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) {
        // A write into a pipe whose reader is gone must fail with EPIPE, not kill the daemon.
        signal(SIGPIPE, SIG_IGN)
        self.settings = settings
        engine = SnapcastEngine(queue: queue, settings: settings, events: events)
        queue.sync { engine.setUp() }
    }

    deinit { shutdown() }

    public func connectInBackground() { queue.sync { engine.connectLazily() } }

    @discardableResult
    public func play(_ source: DecodeAhead, entry: EntryID, title: String, artist: String?, playing: Bool) -> PlaySerial? {
        wakeEngine(when: source)
        return queue.sync {
            engine.playSerial = engine.playSerial.next
            engine.start(SnapcastEngine.Feed(source: source, entry: entry, title: title, artist: artist), playing: playing)
            return engine.playSerial
        }
    }

    public func enqueue(_ source: DecodeAhead, entry: EntryID, title: String, artist: String?) {
        wakeEngine(when: source)
        queue.sync { engine.enqueue(SnapcastEngine.Feed(source: source, entry: entry, title: title, artist: artist)) }
    }

    public func endOfQueue() { queue.sync { engine.endOfQueue() } }
    public func pause() { queue.sync { engine.pause() } }
    public func resume() { queue.sync { engine.resume() } }

    @discardableResult
    public func stop() -> PlaySerial? {
        queue.sync {
            engine.playSerial = engine.playSerial.next
            engine.stop()
            return engine.playSerial
        }
    }

    public func setVolume(_ volume: Double) {
        queue.sync {
            engine.volume = volume
            engine.gain = SampleGain(scale: engine.muted ? 0 : volume)
        }
    }

    /// Switched off, the rooms get silence (the music goes on, as an mpd output switched off).
    public func setMuted(_ muted: Bool) {
        queue.sync {
            engine.muted = muted
            engine.gain = SampleGain(scale: muted ? 0 : engine.volume)
        }
    }

    public func shutdown() { queue.sync { engine.shutDown() } }

    /// Whether the snapserver has the pipe open now (for tests and `aubade status`).
    public var isConnected: Bool { queue.sync { engine.isConnected } }

    private func wakeEngine(when source: DecodeAhead) {
        let queue = self.queue
        weak let engine = self.engine
        source.setWakeUp { queue.async { engine?.kick() } }
    }
}

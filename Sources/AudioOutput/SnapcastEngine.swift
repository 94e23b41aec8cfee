import Dispatch
import PlayerCore

/// The state machine behind `SnapcastOutput`, confined to its queue (hence `@unchecked
/// Sendable`): the pipe and the server's presence, the tracks being written (gapless, each
/// converted to the stream's format), and what is announced when the rooms hear it.
///
/// Offsets are those of the output's logical stream: bytes of converted audio since the last
/// `play` (flush). The pipe holds a physical stream; `delta` maps one onto the other (a resume
/// writes the history again, so the same logical bytes go into the pipe twice).
final class SnapcastEngine: @unchecked Sendable {
    /// Kept unread in the pipe while playing: more than one of the server's 20 ms chunks, so it
    /// never reads a short one (it would pad it with silence), and little enough that a pause
    /// or a seek has little to take back.
    static let leadSeconds = 0.08
    static let playingTick = DispatchTimeInterval.milliseconds(10)
    static let idleTick = DispatchTimeInterval.milliseconds(100)
    /// The server's reader may be away this long (it reopens the pipe within 100 ms) before
    /// the server counts as gone.
    static let readerGrace: Int64 = 300_000
    /// After opening the pipe, how long the server has to open its end.
    static let probeWindow: Int64 = 400_000
    /// Between two attempts to find the server.
    static let retryInterval: Int64 = 500_000
    /// Our ticks see the server's read up to a tick late: half a tick is taken off.
    static let observationLag: Int64 = 5_000
    /// Source bytes read per step at most.
    static let readChunkBytes = 32 * 1024

    /// One track being converted and written, and for which queue entry.
    struct Feed {
        var source: DecodeAhead
        var entry: EntryID
        var title: String?
        var artist: String?
        /// The entry written just before this one (gapless): what the output waits after when
        /// this one turns out unplayable.
        var predecessor: EntryID?
        var converter: PCMConverter?

        init(source: DecodeAhead, entry: EntryID, title: String?, artist: String?) {
            self.source = source
            self.entry = entry
            self.title = title
            self.artist = artist
        }
    }

    /// Something to announce when the rooms hear the byte at `offset`.
    struct Announcement {
        enum Kind { case started, mark(LiveTitle), finished }
        var entry: EntryID
        var offset: Int64
        var kind: Kind
        /// When it is heard, once the server has read it.
        var due: Int64?
    }

    let queue: DispatchQueue
    let settings: SnapcastSettings
    let events: @Sendable (OutputEvent, PlaySerial) -> Void
    var playSerial = PlaySerial(0)
    var isShutDown = false

    // The server
    var pipe: SnapcastPipe?
    var isConnected = false
    var probingSince: Int64?
    var readerMissingSince: Int64?
    var wantsConnection = false
    var outageReported = false
    var nextAttempt: Int64 = 0
    /// A `play` that came while the server was not there: started when it is.
    var pendingPlay: (feed: Feed, playing: Bool)?

    // The tracks
    var current: Feed?
    var next: Feed?
    var waitingAfter: EntryID?
    var askedNext: EntryID?
    var endRequested = false
    var paused = false
    var gain = SampleGain(scale: 1)
    /// The user's volume and the output switched off: `gain` is made of both.
    var volume = 1.0
    var muted = false

    // The stream
    /// Logical offset just after the last converted byte.
    var produced: Int64 = 0
    /// Converted, not yet in the pipe (its first byte is at `produced - out.count`).
    var out: [UInt8] = []
    /// Bytes ever written into the pipe (less what was taken back).
    var physicalWritten: Int64 = 0
    /// logical = physical + delta, for the bytes now in the pipe and read since the last run began.
    var delta: Int64 = 0
    var history: PCMHistory
    var timeline: HeardTimeline
    var announcements: [Announcement] = []
    var scratch: [UInt8] = []

    var tick: DispatchSourceTimer?
    var tickIsFast = false
    var announceTimer: DispatchSourceTimer?

    init(queue: DispatchQueue, settings: SnapcastSettings, events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) {
        self.queue = queue
        self.settings = settings
        self.events = events
        let format = settings.format
        let bytesPerSecond = Double(format.sampleRate * format.bytesPerFrame)
        history = PCMHistory(capacity: format.bytes(seconds: Double(settings.buffer) / 1e6 + 1.5))
        timeline = HeardTimeline(buffer: settings.buffer, bytesPerSecond: bytesPerSecond)
    }

    var format: PCMFormat { settings.format }
    var leadBytes: Int { format.bytes(seconds: Self.leadSeconds) }
    /// The logical offset of the next byte to go into the pipe.
    var pipeOffset: Int64 { produced - Int64(out.count) }

    func emit(_ event: OutputEvent) { events(event, playSerial) }

    /// Creates the timers; on the queue, once.
    func setUp() {
        let tick = DispatchSource.makeTimerSource(queue: queue)
        tick.setEventHandler { [weak self] in self?.work() }
        tick.schedule(deadline: .now() + Self.idleTick, repeating: Self.idleTick, leeway: .milliseconds(5))
        tick.resume()
        self.tick = tick
        let announceTimer = DispatchSource.makeTimerSource(queue: queue)
        announceTimer.setEventHandler { [weak self] in self?.announceDue() }
        announceTimer.resume()
        self.announceTimer = announceTimer
    }

    /// Work now (a decoder caught up).
    func kick() {
        guard !isShutDown else { return }
        work()
    }

    /// Work after the current step (commands, which may come from inside `work`).
    func kickSoon() {
        queue.async { [weak self] in self?.kick() }
    }

    func shutDown() {
        guard !isShutDown else { return }
        isShutDown = true
        tick?.cancel()
        tick = nil
        announceTimer?.cancel()
        announceTimer = nil
        current = nil
        next = nil
        pendingPlay = nil
        announcements = []
        pipe = nil  // closes our end: the server reads the end of the stream
    }
}

import Glibc

/// When the rooms hear what the snapserver read from its pipe.
///
/// snapserver reads its pipe in chunks (20 ms) on its own clock and stamps each chunk with the
/// time it read it; every client plays a chunk `buffer` after that stamp. So a byte at offset
/// `x` of the stream, read in a chunk that ended at offset `R` at time `T`, is heard at
/// `T + (x − R) / rate + buffer`. The output samples the server's read offset (written minus
/// what is still in the pipe) at each of its ticks; this keeps those samples for the last
/// `buffer` and a second more, and answers both ways: when will offset `x` be heard, and what
/// is heard at time `t`.
///
/// Offsets are those of the output's logical stream (bytes since the last flush); times are
/// monotonic microseconds. Memory: about one sample per chunk for ~2 s.
struct HeardTimeline: Sendable {
    /// The snapserver's buffer.
    let buffer: Int64
    let bytesPerSecond: Double
    private var samples: [(time: Int64, read: Int64)] = []
    /// Where this run's audio starts: nothing before it will be heard of this run.
    private(set) var runStart: Int64 = 0

    init(buffer: Int64, bytesPerSecond: Double) {
        self.buffer = max(0, buffer)
        self.bytesPerSecond = max(bytesPerSecond, 1)
    }

    /// The server had read up to `read` at `time` (only changes are kept).
    mutating func note(read: Int64, at time: Int64) {
        if let last = samples.last, last.read >= read { return }
        samples.append((time, read))
        // Keep what `heard(at:)` can still ask about: the last buffer and a second, and one older.
        let horizon = time - buffer - 1_000_000
        if let keep = samples.lastIndex(where: { $0.time < horizon }), keep > 0 {
            samples.removeFirst(keep)
        }
    }

    /// A new run (a flush, a resume from `start`): the old samples are about other audio.
    mutating func restart(at start: Int64) {
        samples.removeAll()
        runStart = start
    }

    /// The last offset the server had read, if any since the run started.
    var lastRead: Int64? { samples.last?.read }

    /// When offset `x` is heard, given the server read up to `read` at `time` (x ≤ read).
    func heardTime(of x: Int64, read: Int64, at time: Int64) -> Int64 {
        time + Int64((Double(x - read) / bytesPerSecond * 1e6).rounded()) + buffer
    }

    /// The offset heard at `time`: the first byte not heard yet. Before anything of this run
    /// is heard, its start.
    func heard(at time: Int64) -> Int64 {
        let readTime = time - buffer
        var previous = runStart
        for sample in samples {
            if sample.time >= readTime {
                let x = sample.read - Int64((Double(sample.time - readTime) * bytesPerSecond / 1e6).rounded())
                return min(max(x, previous), sample.read)
            }
            previous = sample.read
        }
        return previous
    }

    /// Monotonic microseconds.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}

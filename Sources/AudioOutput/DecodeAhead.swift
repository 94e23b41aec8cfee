import Dispatch
import Handoff
import Synchronization
import Glibc

/// One track decoded ahead of the output, on a queue of its own, into a bounded buffer.
///
/// The file is opened, probed, seeked and decoded only on `queue` — never on the app's core
/// queue (which answers the bus) nor on the PulseAudio thread (which holds the mainloop lock
/// the core queue also takes) — so a disk that takes seconds to answer delays only this
/// track's audio, not a Pause, an unplug or any bus call. The PulseAudio thread only copies
/// from the buffer (`read`). Each track has its own serial queue, so a stalled read of one
/// file does not hold up opening the next.
///
/// Memory is bounded: `capacity` of PCM, about `bufferSeconds` of audio.
public final class DecodeAhead: @unchecked Sendable {
    // @unchecked Sendable: `shared` is touched only with `mutex` held; `source` and `scratch`
    // only on `queue`.
    /// What `read` found.
    public enum Read: Equatable, Sendable {
        case bytes(Int)
        /// Nothing decoded yet: the decoder is behind (slow disk); it wakes the output.
        case pending
        /// The track has ended: everything was delivered.
        case end
        /// Decoding failed part-way; what was delivered stays delivered.
        case failed(String)
        /// Nothing can be played from it: it did not open, or held no audio at all.
        case unplayable(String)
    }

    public enum Status: Equatable, Sendable {
        case opening
        case open(PCMFormat)
        case unplayable(String)
    }

    /// Decode ahead this much audio (the server holds another 2 s).
    static let bufferSeconds = 2.0
    /// Decode in pieces of this size, outside the lock.
    static let chunkBytes = 16 * 1024
    /// Decoded before the track counts as open (or all of it, if shorter).
    static let initialSeconds = 0.5

    private struct Shared {
        var status = Status.opening
        /// Replaced by one of the real size once the format is known.
        var ring = ByteRing(capacity: 1)
        /// The source has delivered its last byte into the ring.
        var sourceEnded = false
        var failure: String?
        var delivered = 0
        /// A fill is queued or running.
        var filling = true
        /// The reader found nothing: wake it when something arrives.
        var starved = false
        var wake: (@Sendable () -> Void)?
        /// Marks of decoded audio not yet read out, in order (offsets in the source's PCM).
        var marks: [SourceMark] = []
    }

    /// At most this many marks wait (a station that changes its title every few bytes
    /// cannot grow memory); the oldest give way.
    static let markLimit = 64

    private let queue: DispatchQueue
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var sharedState = Shared()
    /// Touched only on `queue`.
    private var source: PCMSource?
    private var scratch: [UInt8] = []

    /// The state shared with the reader; a plain mutex (`Synchronization.Mutex` rejects the
    /// non-Sendable buffer pointers used inside). Never held while calling out.
    private func withLock<R>(_ body: (inout Shared) -> R) -> R {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body(&sharedState)
    }

    /// A source that ends before any audio is unplayable — unless it was opened past its
    /// start (a seek to the very end, a restored position), where nothing left is no fault.
    private let emptyIsUnplayable: Bool

    /// Set when this track is dropped, for an `open` that waits (a stream connecting).
    private let abandoned = Abandonment()

    /// Starts opening at once, on the track's own queue; `open` may block on the disk.
    /// `fromStart`: the source begins at the start of the track (see `emptyIsUnplayable`).
    public convenience init(label: String = "aubade.decoder", fromStart: Bool = true,
                            open: @escaping @Sendable () throws -> PCMSource) {
        self.init(label: label, fromStart: fromStart, openUntilAbandoned: { _ in try open() })
    }

    /// The same for an `open` that may wait for long (a stream that connects and reconnects):
    /// it is given a function that says whether the track has been dropped meanwhile.
    public init(label: String = "aubade.decoder", fromStart: Bool = true,
                openUntilAbandoned open: @escaping @Sendable (_ isAbandoned: @escaping @Sendable () -> Bool) throws -> PCMSource) {
        emptyIsUnplayable = fromStart
        queue = DispatchQueue(label: label, qos: .userInitiated)
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        // Only fails for lack of resources: a programmer error at this size.
        let result = pthread_mutex_init(mutex, nil)
        precondition(result == 0, "pthread_mutex_init failed: \(result)")
        // `self` is not held while the file opens: a track dropped meanwhile (Next on a hung
        // disk) is freed at once, and its open's result is thrown away.
        let abandoned = self.abandoned
        queue.async { [weak self] in
            let opened = Result { try open { abandoned.isSet } }
            self?.opened(opened)
        }
    }

    /// An already-open source (tests, generated PCM).
    public convenience init(_ source: PCMSource) {
        let box = UncheckedBox(source)
        self.init { box.value }
    }

    deinit {
        abandoned.set()
        // The decoder closes its file when released: on the decoder's queue, not on whichever
        // thread (often the PulseAudio one, under its lock) let go of this last.
        if let source {
            let closing = UncheckedBox(source)
            queue.async { _ = closing }
        }
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    public var status: Status { withLock { $0.status } }

    public var format: PCMFormat? {
        if case .open(let format) = status { return format }
        return nil
    }

    /// The decoder has reached the end of the track (what is left waits in the buffer).
    public var hasDecodedEverything: Bool { withLock { $0.sourceEnded && $0.failure == nil } }

    /// `wake` is called (on the decoder's queue, no lock held) when the reader was starved and
    /// audio, the format, the end or a failure arrived. Set once, before reading.
    public func setWakeUp(_ wake: @escaping @Sendable () -> Void) {
        // Not called now even if the track is open already: the caller hands the source to
        // the output next, which reads it anyway.
        withLock { $0.wake = wake }
    }

    /// Marks whose audio has been read out by now, each with the number of bytes read after
    /// its point (0 = the last byte read was just before it… count back from the end of what
    /// `read` returned to place it). PulseAudio thread, after `read`.
    public func takeReadMarks() -> [(mark: SourceMark, bytesAfter: Int64)] {
        withLock { shared in
            let delivered = Int64(shared.delivered)
            guard let first = shared.marks.first, first.byteOffset < delivered else { return [] }
            let split = shared.marks.firstIndex { $0.byteOffset >= delivered } ?? shared.marks.endIndex
            let taken = shared.marks[..<split].map { ($0, delivered - $0.byteOffset) }
            shared.marks.removeFirst(split)
            return taken
        }
    }

    /// Copies decoded PCM (whole frames) into `buffer`. PulseAudio thread; never blocks on I/O.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        let (result, refill) = withLock { shared -> (Read, Bool) in
            switch shared.status {
            case .opening:
                shared.starved = true
                return (.pending, false)
            case .unplayable(let reason):
                return (.unplayable(reason), false)
            case .open(let format):
                let frame = format.bytesPerFrame
                let usable = buffer.count - buffer.count % frame
                let available = shared.ring.count
                let count = min(usable, available - available % frame)
                if count > 0 {
                    let copied = shared.ring.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<count]))
                    shared.delivered += copied
                    let refill = !shared.filling && !shared.sourceEnded
                        && shared.ring.freeSpace >= shared.ring.capacity / 2
                    if refill { shared.filling = true }
                    return (.bytes(copied), refill)
                }
                if shared.sourceEnded {
                    // Nothing heard of a track read from its start: it is not playable (and is
                    // dropped, rather than failing again at every pass of a looping queue).
                    if shared.delivered == 0, emptyIsUnplayable { return (.unplayable(shared.failure ?? "no audio in it"), false) }
                    if let failure = shared.failure { return (.failed(failure), false) }
                    return (.end, false)
                }
                shared.starved = true
                let refill = !shared.filling
                if refill { shared.filling = true }
                return (.pending, refill)
            }
        }
        if refill { queue.async { [weak self] in self?.fill() } }
        return result
    }

    // MARK: - The decoder's queue

    private func opened(_ result: Result<PCMSource, any Error>) {
        switch result {
        case .success(let source):
            self.source = source
            // Input that arrives later (a stream between packets) restarts filling here.
            source.setInputWaker? { [weak self] in
                guard let self else { return }
                self.queue.async { [weak self] in self?.fill() }
            }
            let capacity = max(source.format.bytes(seconds: Self.bufferSeconds), Self.chunkBytes * 2)
            withLock { $0.ring = ByteRing(capacity: capacity) }
            // Still `.opening` to the reader: the format is published once a first stretch is
            // decoded, so the stream starts with enough in hand to ride out a busy CPU.
            fill()
        case .failure(let error):
            let wake = withLock { shared -> (@Sendable () -> Void)? in
                shared.status = .unplayable(Self.describe(error))
                shared.filling = false
                shared.starved = false
                return shared.wake
            }
            wake?()
        }
    }

    /// Decodes one chunk, then queues the next step until the buffer is full or the source
    /// ends. One chunk a step: a track dropped by the output (nothing else holds it) stops
    /// decoding at once. Reads the disk without holding the lock; the reader drains meanwhile.
    private func fill() {
        guard let source else { return }
        let frame = source.format.bytesPerFrame
        let chunk = Self.chunkBytes - Self.chunkBytes % frame
        if scratch.count != chunk { scratch = [UInt8](repeating: 0, count: chunk) }
        // The room check and clearing `filling` happen under one lock, so a reader that drains
        // the buffer in between sees `filling == false` and queues the next fill itself.
        let hasRoom = withLock { shared -> Bool in
            if shared.ring.freeSpace >= chunk { return true }
            shared.filling = false
            return false
        }
        guard hasRoom else { return }
        var produced = 0
        var failure: String?
        var starved = false
        scratch.withUnsafeMutableBytes { buffer in
            do {
                produced = try source.read(buffer)
            } catch is SourceStarved {
                starved = true
            } catch {
                failure = Self.describe(error)
            }
        }
        let marks = source.takeMarks?() ?? []
        if starved {
            // `filling` stays set: the source's waker queues the next fill, not the reader.
            if !marks.isEmpty { withLock { Self.keep(marks, in: &$0) } }
            return
        }
        produced = max(0, min(produced - produced % frame, chunk))
        let ended = produced == 0
        let initialBytes = source.format.bytes(seconds: Self.initialSeconds)
        let wake = scratch.withUnsafeBytes { bytes in
            withLock { shared -> (@Sendable () -> Void)? in
                if produced > 0 { _ = shared.ring.write(UnsafeRawBufferPointer(rebasing: bytes[0..<produced])) }
                Self.keep(marks, in: &shared)
                if ended {
                    shared.sourceEnded = true
                    shared.failure = failure
                    shared.filling = false
                }
                var published = false
                if shared.status == .opening, ended || shared.ring.count >= initialBytes {
                    shared.status = .open(source.format)
                    published = true
                }
                // The end always wakes the output: it asks for the next track then. A starved
                // reader is woken once there is something it can read (not while `.opening`).
                let readable = shared.starved && shared.status != .opening
                guard readable || ended || published else { return nil }
                shared.starved = false
                return shared.wake
            }
        }
        wake?()
        if ended {
            self.source = nil  // closes the file now, not when the output lets go
            return
        }
        queue.async { [weak self] in self?.fill() }
    }

    private static func keep(_ marks: [SourceMark], in shared: inout Shared) {
        guard !marks.isEmpty else { return }
        shared.marks += marks
        if shared.marks.count > markLimit { shared.marks.removeFirst(shared.marks.count - markLimit) }
    }

    private static func describe(_ error: any Error) -> String {
        if let error = error as? CustomStringConvertible { return error.description }
        return String(describing: error)
    }
}

/// A flag set once, read from the opening queue.
private final class Abandonment: Sendable {
    private let flag = Atomic<Bool>(false)
    var isSet: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}

/// Carries a value the compiler cannot prove Sendable across one hand-over.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

import Foundation
import PulseKit
@testable import TestSupport

/// A moment, on both clocks: monotonic for intervals inside this process, wall-clock (seconds
/// since 1970) to compare with `dbus-monitor`'s `time=` headers.
struct Stamp: Comparable, CustomStringConvertible {
    var monotonic: UInt64
    var wall: Double

    static func now() -> Stamp {
        var mono = timespec()
        var real = timespec()
        clock_gettime(CLOCK_MONOTONIC, &mono)
        clock_gettime(CLOCK_REALTIME, &real)
        return Stamp(monotonic: UInt64(mono.tv_sec) * 1_000_000_000 + UInt64(mono.tv_nsec),
                     wall: Double(real.tv_sec) + Double(real.tv_nsec) / 1e9)
    }

    /// Milliseconds from `self` to `later` (negative when `later` is earlier).
    func milliseconds(to later: Stamp) -> Double {
        (Double(later.monotonic) - Double(monotonic)) / 1e6
    }

    static func < (lhs: Stamp, rhs: Stamp) -> Bool { lhs.monotonic < rhs.monotonic }
    var description: String { String(format: "%.6f", wall) }
}

/// The sound server's timeline as a client sees it: a PulseKit `Context` in this process,
/// subscribed to sink and sink-input events, each stamped when it arrives. Every sink-input
/// `new` or `change` event is followed by a query of that stream (corked? whose? which role?),
/// whose answer is filed under the event's arrival time.
final class PulseTimeline: @unchecked Sendable {
    // @unchecked Sendable: the libpulse objects are used with the mainloop lock held; the
    // recorded state below is guarded by `condition`.

    /// A sink-input event and what the query right after it said about the stream.
    struct StreamReport {
        var event: SubscriptionEvent.Kind
        /// When the event arrived.
        var at: Stamp
        /// When the query's answer arrived.
        var answeredAt: Stamp
        var info: SinkInputInfo

        var processID: Int32? { info.properties["application.process.id"].flatMap { Int32($0) } }
        var role: String? { info.properties["media.role"] }
    }

    private let mainloop: ThreadedMainloop
    private var context: Context?
    private let condition = NSCondition()
    private var sinkNames: [UInt32: String] = [:]
    private var sinkAnswers = 0
    private var removedSinks: [(name: String, at: Stamp)] = []
    private var reports: [StreamReport] = []
    private var removedStreams: [(index: UInt32, at: Stamp)] = []

    init() throws {
        mainloop = try ThreadedMainloop()
        let context = try Context(mainloop: mainloop, name: "aubade-benchmark")
        self.context = context
        try mainloop.start(threadName: "bench-pulse")
        try mainloop.withLock { () throws -> Void in
            context.onStateChange = { [mainloop] in mainloop.signal() }
            try context.connect()
            while context.state != .ready {
                if context.state.isFinal { throw context.lastError("pa_context_connect") }
                mainloop.wait()
            }
            context.onSubscriptionEvent = { [weak self] event in self?.receive(event, at: Stamp.now()) }
            try context.subscribe([.sink, .sinkInput])
        }
        refreshSinkNames()
    }

    /// Disconnects and stops the loop thread.
    func close() {
        mainloop.withLock {
            context?.onSubscriptionEvent = nil
            context?.onStateChange = nil
            context?.disconnect()
            context = nil
        }
        mainloop.stop()
    }

    deinit { close() }

    // MARK: Recording (loop thread)

    private func receive(_ event: SubscriptionEvent, at stamp: Stamp) {
        switch (event.facility, event.kind) {
        case (.sink, .remove):
            condition.withLock {
                removedSinks.append((sinkNames[event.index] ?? "#\(event.index)", stamp))
                condition.broadcast()
            }
        case (.sink, .new):
            querySinks()
        case (.sinkInput, .remove):
            condition.withLock {
                removedStreams.append((event.index, stamp))
                condition.broadcast()
            }
        case (.sinkInput, let kind):
            _ = try? context?.sinkInputInfo(event.index) { [weak self] info in
                guard let self, let info else { return }
                let answered = Stamp.now()
                self.condition.withLock {
                    self.reports.append(StreamReport(event: kind, at: stamp, answeredAt: answered, info: info))
                    self.condition.broadcast()
                }
            }
        default:
            break
        }
    }

    private func querySinks() {
        _ = try? context?.sinks { [weak self] sinks in
            guard let self, let sinks else { return }
            self.condition.withLock {
                for sink in sinks { self.sinkNames[sink.index] = sink.name }
                self.sinkAnswers += 1
                self.condition.broadcast()
            }
        }
    }

    /// Learns the current sinks' names (so a later `remove` event can be named); waits for the answer.
    func refreshSinkNames(timeout: TimeInterval = 5) {
        let before = condition.withLock { sinkAnswers }
        mainloop.withLock { querySinks() }
        _ = wait(timeout: timeout) { timeline in timeline.sinkAnswers > before ? true : nil }
    }

    // MARK: Reading (test thread)

    /// Waits until `find` (run with the state locked) returns a value; nil on timeout.
    func wait<T>(timeout: TimeInterval, _ find: (PulseTimeline) -> T?) -> T? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let found = find(self) { return found }
            if !condition.wait(until: deadline) { return find(self) }
        }
    }

    /// The arrival of the `remove` event of sink `name`, at or after `after`.
    func sinkRemoved(_ name: String, after: Stamp, timeout: TimeInterval) -> Stamp? {
        wait(timeout: timeout) { timeline in
            timeline.removedSinks.first { $0.name == name && $0.at >= after }?.at
        }
    }

    /// The first report at or after `after` about a stream of process `pid` that satisfies `predicate`.
    func streamReport(ofProcess pid: Int32, after: Stamp, timeout: TimeInterval,
                      where predicate: @escaping (StreamReport) -> Bool) -> StreamReport? {
        wait(timeout: timeout) { timeline in
            timeline.reports.first { $0.at >= after && $0.processID == pid && predicate($0) }
        }
    }

    /// The first `new` stream at or after `after` with `media.role` = `role`.
    func newStream(role: String, after: Stamp, timeout: TimeInterval) -> StreamReport? {
        wait(timeout: timeout) { timeline in
            timeline.reports.first { $0.at >= after && $0.event == .new && $0.role == role }
        }
    }

    /// Every report at or after `after` about the streams of process `pid`, in arrival order.
    func streamReports(ofProcess pid: Int32, after: Stamp) -> [StreamReport] {
        condition.withLock { reports.filter { $0.at >= after && $0.processID == pid } }
    }

    /// When the stream of process `pid` became corked for good (after `after`): the first
    /// corked report after its last uncorked one. A sound server may report a stream corked for
    /// a moment on its own (pipewire-pulse does while it moves a stream to another sink): such a
    /// transient, followed by an uncorked report, does not count.
    func corkedForGood(ofProcess pid: Int32, after: Stamp) -> StreamReport? {
        let all = streamReports(ofProcess: pid, after: after)
        let lastUncorked = all.lastIndex { !$0.info.isCorked }
        let rest = lastUncorked.map { all[($0 + 1)...] } ?? all[...]
        // pipewire-pulse also reports a stream corked, on no sink, the moment its sink goes away
        // (mpv's too, uncorked again ~15 ms later on the other sink): prefer a report on a sink.
        return rest.first { $0.info.isCorked && $0.info.sinkIndex != UInt32.max } ?? rest.first { $0.info.isCorked }
    }

    /// The arrival of the `remove` event of sink input `index`, at or after `after`.
    func streamRemoved(_ index: UInt32, after: Stamp, timeout: TimeInterval) -> Stamp? {
        wait(timeout: timeout) { timeline in
            timeline.removedStreams.first { $0.index == index && $0.at >= after }?.at
        }
    }

    /// Forgets what was recorded so far (between runs).
    func clear() {
        condition.withLock {
            removedSinks.removeAll()
            reports.removeAll()
            removedStreams.removeAll()
        }
    }
}

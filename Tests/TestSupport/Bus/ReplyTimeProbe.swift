import DBusKit
import Foundation

/// Asks the daemon for PlaybackStatus every `interval` (20 ms), on a bus connection and a
/// thread of its own, and keeps every reply time: how well the bus is answered through a fault
/// (a frozen sound server, a slow disk). A call gets `timeout` (1 s) to be answered, so a
/// daemon that hangs makes the probe record slow calls, never makes the test hang.
final class ReplyTimeProbe: @unchecked Sendable {
    struct Sample {
        /// Seconds from `start()` to the call being sent.
        var at: Double
        /// Round trip in seconds (up to the timeout when there was no reply).
        var seconds: Double
        /// Why there was no answer (timeout, error reply); nil for an answer.
        var failure: String?
    }

    let interval: TimeInterval
    let timeout: TimeInterval
    private let client: BusClient
    private let lock = NSLock()
    private var samples: [Sample] = []
    private var running = false
    private let finished = DispatchSemaphore(value: 0)
    private var startTime = DispatchTime.now()

    /// One call the probe makes: interface, member, arguments.
    typealias Call = (interface: String, member: String, arguments: [DBusKit.DBusValue])
    /// What it asks, in turn: by default the PlaybackStatus every client reads.
    private let calls: [Call]

    static let playbackStatus: Call = ("org.freedesktop.DBus.Properties", "Get",
                                       [.string("org.mpris.MediaPlayer2.Player"), .string("PlaybackStatus")])

    init(interval: TimeInterval = 0.02, timeout: TimeInterval = 1, calls: [Call] = [ReplyTimeProbe.playbackStatus]) throws {
        self.interval = interval
        self.timeout = timeout
        self.calls = calls
        client = try BusClient(label: "aubade.tests.reply-time-probe")
    }

    /// Starts polling on a thread of its own.
    func start() {
        lock.withLock {
            samples = []
            running = true
            startTime = .now()
        }
        let thread = Thread { [self] in
            var turn = 0
            while lock.withLock({ running }) {
                let call = calls[turn % calls.count]
                turn += 1
                let sent = DispatchTime.now()
                var failure: String?
                do {
                    _ = try client.call(call.interface, call.member, call.arguments, timeoutMilliseconds: Int32(timeout * 1000))
                } catch {
                    failure = briefly(error, timeout: timeout)
                }
                let done = DispatchTime.now()
                let seconds = Double(done.uptimeNanoseconds - sent.uptimeNanoseconds) / 1e9
                lock.withLock {
                    samples.append(Sample(at: Double(sent.uptimeNanoseconds - startTime.uptimeNanoseconds) / 1e9,
                                          seconds: seconds, failure: failure))
                }
                let pause = interval - seconds
                if pause > 0 { Thread.sleep(forTimeInterval: pause) }
            }
            finished.signal()
        }
        thread.start()
    }

    /// Seconds since `start()`.
    var elapsed: Double { Double(DispatchTime.now().uptimeNanoseconds - lock.withLock { startTime }.uptimeNanoseconds) / 1e9 }

    /// The samples so far (the probe goes on).
    var snapshot: ReplyTimes { ReplyTimes(samples: lock.withLock { samples }, timeout: timeout) }

    /// Stops polling (after the call in flight, at most `timeout`) and returns what it saw.
    func stop() -> ReplyTimes {
        let wasRunning = lock.withLock { () -> Bool in
            defer { running = false }
            return running
        }
        if wasRunning { _ = finished.wait(timeout: .now() + timeout + 2) }
        return snapshot
    }

    deinit {
        _ = stop()
    }
}

/// What a `ReplyTimeProbe` saw.
struct ReplyTimes: CustomStringConvertible {
    var samples: [ReplyTimeProbe.Sample]
    var timeout: TimeInterval

    var worst: ReplyTimeProbe.Sample? { samples.max { $0.seconds < $1.seconds } }
    var worstMilliseconds: Double { (worst?.seconds ?? .nan) * 1000 }
    var unanswered: [ReplyTimeProbe.Sample] { samples.filter { $0.failure != nil } }
    var median: Double {
        let sorted = samples.map(\.seconds).sorted()
        return sorted.isEmpty ? .nan : sorted[sorted.count / 2]
    }
    /// From the first call sent to the last call answered.
    var span: Double { (samples.last.map { $0.at + $0.seconds } ?? 0) - (samples.first?.at ?? 0) }

    /// Samples slower than `seconds`, as "at 1.23 s: 250 ms".
    func slowerThan(_ seconds: Double, limit: Int = 8) -> String {
        let slow = samples.filter { $0.seconds > seconds }
        guard !slow.isEmpty else { return "none" }
        return slow.prefix(limit).map { String(format: "at %.2f s: %.0f ms%@", $0.at, $0.seconds * 1000,
                                                $0.failure.map { " (\($0))" } ?? "") }.joined(separator: ", ")
            + (slow.count > limit ? ", … (\(slow.count) in all)" : "")
    }

    var description: String {
        guard let worst else { return "no calls" }
        return String(format: "%d calls over %.1f s: median %.1f ms, worst %.1f ms (at %.2f s)%@",
                      samples.count, span, median * 1000, worst.seconds * 1000, worst.at,
                      unanswered.isEmpty ? "" : ", \(unanswered.count) without a reply within \(timeout) s")
    }
}

extension BusClient {
    /// Properties.Get with a reply timeout (ms), timed.
    func get(_ interface: String, _ property: String, timeout: Int32) throws -> (value: DBusKit.DBusValue?, seconds: Double) {
        let (values, seconds) = try call("org.freedesktop.DBus.Properties", "Get", [.string(interface), .string(property)],
                                         timeoutMilliseconds: timeout)
        return (values.first?.unwrapped, seconds)
    }
}

/// A failed call in a few words: "no reply within 1.0 s" for a timeout, else the error's name.
func briefly(_ error: any Error, timeout: TimeInterval) -> String {
    guard let error = error as? DBusError else { return "\(error)" }
    return error.name == DBusError.noReplyName ? "no reply within \(timeout) s" : error.name
}

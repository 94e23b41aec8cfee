import Handoff
import JSON
import SnapcastControl
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A client of snapserver's JSON-RPC control port (TCP, one JSON object a line), as Snapweb is:
/// keeps the rooms (`RoomsState`) from `Server.GetStatus` and the notifications, sets a room's
/// volume and mute (`Client.SetVolume`), and connects again, backing off, when snapserver goes
/// away (a restart, an upgrade).
///
/// Everything snapserver sends is hostile input: a line is at most `maximumLineLength` bytes
/// (a longer one is skipped to its end), it is parsed by the bounded `JSONText`, at most
/// `RoomsState.maximumRooms` rooms are kept, and what is wrong is one log line (at most
/// `problemsLogged` a connection), never a crash.
///
/// One thread of its own: connect, read, write, time out. Requests from other
/// threads wait in a bounded outbox and wake it through a pipe. `onChange` and every
/// completion are called on that thread.
public final class SnapcastRoomsClient: @unchecked Sendable {
    // @unchecked Sendable: `state`, the connection and `pending` are the thread's alone; what
    // other threads touch is in `shared` (LockedState) and the eventfd.

    public enum Level: Sendable { case debug, info, warning }

    public enum SetError: Error, Sendable, Equatable {
        /// Not connected to snapserver (or no such room).
        case unavailable(String)
        /// snapserver refused it, or did not answer in time.
        case failed(String)
    }

    public typealias Completion = @Sendable (Result<Void, SetError>) -> Void

    public static let maximumLineLength = 1 << 20
    /// Requests waiting to be sent at most (the page's are rate-limited far below that).
    public static let maximumWaiting = 32
    public static let answerTimeout = 5.0
    public static let problemsLogged = 10
    /// Seconds between attempts to connect: doubling from the first to the last.
    public static let backoff: (first: Double, last: Double) = (0.5, 10)

    public let host: String
    public let port: Int
    private let log: @Sendable (Level, String) -> Void

    private struct Outgoing {
        var id: String
        var percent: Int?
        var muted: Bool?
        var completion: Completion
    }

    private struct Shared {
        var rooms: [SnapcastRoom]?
        var outbox: [Outgoing] = []
        var stopping = false
        var onChange: (@Sendable ([SnapcastRoom]?) -> Void)?
    }

    private let shared = LockedState(Shared())
    /// A pipe whose read end wakes the thread's poll (eventfd is not in Glibc's module).
    private let wake: Int32
    private let wakeWriter: Int32
    private var thread: pthread_t?

    // The thread's own:
    private var state: RoomsState
    private enum Pending {
        case status
        case setVolume(id: String, completion: Completion)
    }
    private var pending: [Int64: (what: Pending, deadline: Double)] = [:]
    private var nextID: Int64 = 0
    private var problems = 0
    /// The first status of the connection was read: the rooms are known.
    private var ready = false

    public init(host: String, port: Int, streamPath: String?, log: @escaping @Sendable (Level, String) -> Void) {
        self.host = host
        self.port = port
        self.log = log
        state = RoomsState(streamPath: streamPath)
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        (wake, wakeWriter) = (ends[0], ends[1])
    }

    deinit {
        if wake >= 0 { close(wake) }
        if wakeWriter >= 0 { close(wakeWriter) }
    }

    /// The rooms now; nil while snapserver is not reached (or has not yet said).
    public var rooms: [SnapcastRoom]? { shared.withLock { $0.rooms } }

    /// Called with the rooms after each change (nil: snapserver is gone), on the client's thread.
    public func onChange(_ handler: @escaping @Sendable ([SnapcastRoom]?) -> Void) {
        shared.withLock { $0.onChange = handler }
    }

    /// Starts the thread: it connects, and keeps connecting until `stop`.
    public func start() {
        guard thread == nil else { return }
        let box = Unmanaged.passRetained(self).toOpaque()
        var created = pthread_t()
        let result = pthread_create(&created, nil, { argument in
            let client = Unmanaged<SnapcastRoomsClient>.fromOpaque(argument!).takeRetainedValue()
            client.run()
            return nil
        }, box)
        if result == 0 {
            thread = created
        } else {
            Unmanaged<SnapcastRoomsClient>.fromOpaque(box).release()
            log(.warning, "rooms: no thread for snapserver's control port (error \(result)): no rooms")
        }
    }

    /// Stops the thread (and waits for it); waiting requests fail.
    public func stop() {
        shared.withLock { $0.stopping = true }
        poke()
        if let thread { pthread_join(thread, nil) }
        thread = nil
    }

    /// Sets room `id`'s volume (0…100) and/or mute; `completion` once snapserver answered.
    public func set(id: String, percent: Int?, muted: Bool?, completion: @escaping Completion) {
        let refusal: SetError? = shared.withLock { shared in
            if shared.stopping { return .unavailable("stopping") }
            if shared.rooms == nil { return .unavailable("snapserver is not reached") }
            if shared.outbox.count >= Self.maximumWaiting { return .failed("too many changes wait for snapserver") }
            shared.outbox.append(Outgoing(id: id, percent: percent, muted: muted, completion: completion))
            return nil
        }
        if let refusal { return completion(.failure(refusal)) }
        poke()
    }

    private func poke() {
        var one: UInt8 = 1
        _ = write(wakeWriter, &one, 1)
    }

    // MARK: The thread

    private var stopping: Bool { shared.withLock { $0.stopping } }

    private func run() {
        var delay = Self.backoff.first
        var outage = false
        while !stopping {
            switch connect() {
            case .failure(let why):
                if !outage {
                    log(.warning, "rooms: cannot reach snapserver's control port \(address) (\(why)): trying again")
                    outage = true
                }
            case .success(let descriptor):
                log(.info, "rooms: connected to snapserver's control port \(address)")
                outage = false
                let answered = session(descriptor)
                close(descriptor)
                ready = false
                _ = state.forget()
                publishRooms(nil)
                failPending("the connection to snapserver was lost")
                if answered { delay = Self.backoff.first }
                if !stopping {
                    log(.warning, "rooms: snapserver's control port \(address) closed: connecting again")
                    outage = true
                }
            }
            guard !stopping else { break }
            wait(seconds: delay)
            delay = min(delay * 2, Self.backoff.last)
        }
        failPending("stopping")
        for request in shared.withLock({ shared in defer { shared.outbox = [] }; return shared.outbox }) {
            request.completion(.failure(.unavailable("stopping")))
        }
    }

    private var address: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Waits `seconds`, or until `stop`.
    private func wait(seconds: Double) {
        var descriptor = pollfd(fd: wake, events: Int16(POLLIN), revents: 0)
        let deadline = QueueScheduler.monotonicSeconds() + seconds
        while !stopping {
            let left = deadline - QueueScheduler.monotonicSeconds()
            guard left > 0 else { return }
            _ = poll(&descriptor, 1, Int32(left * 1000) + 1)
            drainWake()
            // Requests made while snapserver is away fail at once rather than wait for it.
            for request in shared.withLock({ shared in defer { shared.outbox = [] }; return shared.outbox }) {
                request.completion(.failure(.unavailable("snapserver is not reached")))
            }
        }
    }

    private func drainWake() {
        var bytes = [UInt8](repeating: 0, count: 64)
        while read(wake, &bytes, bytes.count) > 0 {}
    }

    /// A connected, non-blocking socket, within 3 s.
    private func connect() -> Result<Int32, RoomsProblem> {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_family = AF_UNSPEC
        var found: UnsafeMutablePointer<addrinfo>?
        let looked = getaddrinfo(host, String(port), &hints, &found)
        guard looked == 0, let first = found else {
            return .failure(RoomsProblem(looked == 0 ? "no address" : String(cString: gai_strerror(looked))))
        }
        defer { freeaddrinfo(first) }
        var why = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let info = entry {
            entry = info.pointee.ai_next
            let descriptor = socket(info.pointee.ai_family, info.pointee.ai_socktype | Int32(SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue),
                                    info.pointee.ai_protocol)
            guard descriptor >= 0 else { why = String(cString: strerror(errno)); continue }
            if Glibc.connect(descriptor, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return .success(descriptor) }
            guard errno == EINPROGRESS else {
                why = String(cString: strerror(errno))
                close(descriptor)
                continue
            }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            _ = poll(&descriptors, 2, 3000)
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &error, &length)
            if descriptors[0].revents & Int16(POLLOUT) != 0, error == 0 { return .success(descriptor) }
            why = error != 0 ? String(cString: strerror(error)) : "no answer within 3 s"
            close(descriptor)
        }
        return .failure(RoomsProblem(why))
    }

    /// One connection, until it closes, fails, or `stop`. True when snapserver gave a status.
    private func session(_ descriptor: Int32) -> Bool {
        var reader = LineReader(limit: Self.maximumLineLength)
        var output: [UInt8] = []
        var answered = false
        problems = 0
        output += request(.status, method: "Server.GetStatus")
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !stopping {
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN) | (output.isEmpty ? 0 : Int16(POLLOUT)), revents: 0),
                               pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
            let now = QueueScheduler.monotonicSeconds()
            let next = pending.values.map(\.deadline).min().map { max(0, $0 - now) } ?? 60
            _ = poll(&descriptors, 2, Int32(min(next, 60) * 1000) + 1)
            if descriptors[1].revents != 0 {
                drainWake()
                output += takeOutbox()
            }
            if descriptors[0].revents & Int16(POLLOUT) != 0, !output.isEmpty {
                let sent = output.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if sent < 0, errno != EAGAIN, errno != EINTR { return answered }
                if sent > 0 { output.removeFirst(sent) }
            }
            if descriptors[0].revents & Int16(POLLIN | POLLHUP | POLLERR) != 0 {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                if count == 0 { return answered }
                if count < 0, errno != EAGAIN, errno != EINTR { return answered }
                if count > 0 {
                    for item in reader.feed(buffer[0..<count]) {
                        switch item {
                        case .tooLong:
                            problem("a line longer than \(Self.maximumLineLength) bytes (skipped)")
                        case .line(let line):
                            guard !line.isEmpty else { continue }
                            if let more = handle(line, answered: &answered) { output += more }
                        }
                    }
                }
            }
            // Answers that did not come: the request fails; a status that did not, the connection
            // (a server that stopped answering is connected to again).
            let late = QueueScheduler.monotonicSeconds()
            for (id, entry) in pending where entry.deadline <= late {
                pending[id] = nil
                switch entry.what {
                case .status:
                    log(.warning, "rooms: snapserver did not answer Server.GetStatus within \(Int(Self.answerTimeout)) s")
                    return answered
                case .setVolume(_, let completion):
                    completion(.failure(.failed("snapserver did not answer within \(Int(Self.answerTimeout)) s")))
                }
            }
        }
        return answered
    }

    /// One line: the state changed (published), a request answered; a new status asked for
    /// when a notification needs one (returned, to be sent).
    private func handle(_ line: [UInt8], answered: inout Bool) -> [UInt8]? {
        do throws(RoomsProblem) {
            switch try RoomsState.message(line) {
            case .notification(let method, let params):
                let outcome = try state.apply(notification: method, params: params)
                if method == "Server.OnUpdate" { reportLeftOut() }
                return follow(outcome)
            case .result(let id, let result):
                guard let entry = pending.removeValue(forKey: id) else { return nil }
                switch entry.what {
                case .status:
                    answered = true
                    let outcome = try state.applyStatus(result)
                    reportLeftOut()
                    if ready {
                        publish(outcome)
                    } else {
                        ready = true
                        log(.info, "rooms: \(state.rooms.count) rooms" + (state.streamID.map { " play the stream \($0.prefix(64))" }
                            ?? " (every client: no stream reads \(state.streamPath ?? "Aubade's pipe"))"))
                        publishRooms(state.rooms)
                    }
                case .setVolume(let room, let completion):
                    // It is set; the result is the volume as set (`{"volume": {...}}`), told
                    // before the answer, so that what asks next sees it. One that cannot be
                    // read: the status is asked again.
                    defer { completion(.success(())) }
                    do throws(RoomsProblem) {
                        publish(try state.applyVolume(id: room, result["volume"]))
                    } catch {
                        problem("a Client.SetVolume result that is not a volume")
                        return follow(.needsStatus)
                    }
                }
                return nil
            case .error(let id, let message):
                guard let id, let entry = pending.removeValue(forKey: id) else {
                    problem("an error without a request: \(message)")
                    return nil
                }
                switch entry.what {
                case .status:
                    problem("Server.GetStatus failed: \(message)")
                case .setVolume(_, let completion):
                    completion(.failure(.failed("snapserver: \(message)")))
                }
                return nil
            }
        } catch {
            problem(error.description)
            return nil
        }
    }

    private func follow(_ outcome: RoomsState.Outcome) -> [UInt8]? {
        switch outcome {
        case .unchanged: return nil
        case .changed:
            publish(.changed)
            return nil
        case .needsStatus:
            // One at a time: the answer to one asked already will tell.
            guard !pending.values.contains(where: { if case .status = $0.what { true } else { false } }) else { return nil }
            return request(.status, method: "Server.GetStatus")
        }
    }

    private func request(_ what: Pending, method: String, params: JSONValue? = nil) -> [UInt8] {
        nextID = nextID == Int64.max ? 1 : nextID + 1
        pending[nextID] = (what, QueueScheduler.monotonicSeconds() + Self.answerTimeout)
        return RoomsState.request(id: nextID, method: method, params: params)
    }

    private func takeOutbox() -> [UInt8] {
        var bytes: [UInt8] = []
        for request in shared.withLock({ shared in defer { shared.outbox = [] }; return shared.outbox }) {
            guard let params = state.setVolumeParams(id: request.id, percent: request.percent, muted: request.muted) else {
                request.completion(.failure(.unavailable("no room \(request.id.prefix(64))")))
                continue
            }
            bytes += self.request(.setVolume(id: request.id, completion: request.completion), method: "Client.SetVolume", params: params)
        }
        return bytes
    }

    /// A change of the rooms, once the first status of this connection was read.
    private func publish(_ outcome: RoomsState.Outcome) {
        guard ready, outcome == .changed else { return }
        publishRooms(state.rooms)
    }

    private func publishRooms(_ rooms: [SnapcastRoom]?) {
        let handler = shared.withLock { shared -> (@Sendable ([SnapcastRoom]?) -> Void)? in
            guard shared.rooms != rooms else { return nil }
            shared.rooms = rooms
            return shared.onChange
        }
        handler?(rooms)
    }

    private func failPending(_ why: String) {
        let waiting = pending
        pending = [:]
        for entry in waiting.values {
            if case .setVolume(_, let completion) = entry.what { completion(.failure(.unavailable(why))) }
        }
    }

    private func reportLeftOut() {
        if let leftOut = state.leftOut { problem("the status left out \(leftOut)") }
    }

    /// One log line for what was wrong in what snapserver sent; at most `problemsLogged` a
    /// connection, so a server that sends nothing but junk cannot fill the journal.
    private func problem(_ what: String) {
        problems += 1
        if problems <= Self.problemsLogged {
            log(.warning, "rooms: snapserver sent \(what)" + (problems == Self.problemsLogged ? " (no more such lines for this connection)" : ""))
        }
    }
}

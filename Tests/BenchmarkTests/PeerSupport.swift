import CDBus
import Foundation
@testable import TestSupport

// Tools of the peer benchmark (PeerBenchmarkTests): children spawned with posix_spawn and reaped
// with wait4 (their rusage), /proc accounting of live processes, a raw libdbus client (no
// dispatching layer between the socket and the clock), a sink-monitor recorder whose bytes are
// put on the monotonic clock, and mpd's text protocol.

// MARK: - Children with their rusage

/// A child started with posix_spawn (stdin /dev/null, stdout and stderr to a log file or a
/// given descriptor) and reaped by a thread with wait4, which leaves its CPU time and peak RSS.
/// Stopped by PID only.
final class Spawned: @unchecked Sendable {
    struct Exit {
        var status: Int32
        var usage: rusage
        var at: Stamp
        /// user + system seconds of the child and of the children it waited for.
        var cpuSeconds: Double {
            Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
                + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
        }
        /// Peak resident set (kB), of the largest process among it and its waited-for children.
        var maxRSSKilobytes: Int { Int(usage.ru_maxrss) }
    }

    let pid: pid_t
    let name: String
    /// Just before posix_spawn.
    let started: Stamp
    let logPath: String?
    private let condition = NSCondition()
    private var exitValue: Exit?

    /// `environment`: entries added to (a nil value: removed from) this process's environment.
    init(_ tool: String, _ arguments: [String], environment: [String: String?] = [:], logPath: String?,
         stdoutDescriptor: Int32? = nil) throws {
        let executable = try Shell.which(tool)
        name = (tool as NSString).lastPathComponent
        self.logPath = logPath
        var env = ProcessInfo.processInfo.environment
        env["LC_ALL"] = "C"
        for (key, value) in environment { env[key] = value }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let log = logPath ?? "/dev/null"
        if let stdoutDescriptor {
            posix_spawn_file_actions_adddup2(&actions, stdoutDescriptor, 1)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        // Nothing of ours past stderr (the pipes of other test children, the bus socket…).
        // (glibc ≥ 2.34; not visible to Swift without _GNU_SOURCE, hence dlsym.)
        if let closeFrom = Spawned.addCloseFrom { _ = closeFrom(&actions, 3) }

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        started = Stamp.now()
        let result = posix_spawn(&child, executable, &actions, nil, argv, envp)
        guard result == 0 else { throw ShellError.launchFailed(tool, String(cString: strerror(result))) }
        pid = child
        let thread = Thread { [self, child] in
            var status: Int32 = 0
            var usage = rusage()
            while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
            let at = Stamp.now()
            condition.withLock {
                exitValue = Exit(status: status, usage: usage, at: at)
                condition.broadcast()
            }
        }
        thread.start()
    }

    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>?, Int32) -> Int32
    private static let addCloseFrom: AddCloseFrom? = {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }  // RTLD_DEFAULT
        return unsafeBitCast(symbol, to: AddCloseFrom.self)
    }()

    var exit: Exit? { condition.withLock { exitValue } }
    var isRunning: Bool { exit == nil }

    func waitForExit(timeout: TimeInterval) -> Exit? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while exitValue == nil {
            if !condition.wait(until: deadline) { break }
        }
        return exitValue
    }

    /// SIGTERM (or `signal`), up to `grace` seconds, then SIGKILL; by PID.
    @discardableResult
    func stop(signal first: Int32 = SIGTERM, grace: TimeInterval = 3) -> Exit? {
        if let exit { return exit }
        kill(pid, first)
        if let exit = waitForExit(timeout: grace) { return exit }
        kill(pid, SIGKILL)
        return waitForExit(timeout: 5)
    }

    /// The last lines of its log, for error messages.
    func logTail(_ count: Int = 15) -> String {
        guard let logPath, let text = try? String(contentsOfFile: logPath, encoding: .utf8) else { return "" }
        return text.split(separator: "\n").suffix(count).joined(separator: "\n")
    }

    deinit {
        if exit == nil { kill(pid, SIGKILL) }
    }
}

// MARK: - /proc accounting of live processes

enum ProcAccounting {
    static let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))

    /// The whole of a /proc file (Foundation's String(contentsOfFile:) stops short on some of them).
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var data = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(descriptor, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { break }
            data += chunk[0..<count]
        }
        return String(decoding: data, as: UTF8.self)
    }

    /// utime + stime (clock ticks) of `pid` (all its threads, exited ones too): fields 14 and 15
    /// of /proc/PID/stat; with `thread`, of that thread only (/proc/PID/task/TID/stat).
    static func cpuTicks(_ pid: pid_t, thread: pid_t? = nil) -> Int? {
        let path = thread.map { "/proc/\(pid)/task/\($0)/stat" } ?? "/proc/\(pid)/stat"
        guard let stat = read(path), let close = stat.lastIndex(of: ")") else { return nil }
        // After "pid (comm) ": state is field 3, so field n is at index n - 3.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// A field of /proc/PID/status in kB ("VmHWM", "VmRSS").
    static func statusKilobytes(_ pid: pid_t, _ field: String) -> Int? {
        guard let status = read("/proc/\(pid)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("\(field):") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// `pid` and all its live descendants (parent links of /proc/*/stat).
    static func tree(_ pid: pid_t) -> [pid_t] {
        var parents: [pid_t: pid_t] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let child = pid_t(entry),
                  let stat = read("/proc/\(entry)/stat"),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, let parent = pid_t(fields[1]) { parents[child] = parent }
        }
        var result = [pid]
        var frontier = [pid]
        while let next = frontier.popLast() {
            let children = parents.filter { $0.value == next }.map(\.key)
            result += children
            frontier += children
        }
        return result
    }

    /// Ticks of every process of the trees of `roots`.
    static func treeTicks(_ roots: [pid_t]) -> Int {
        roots.flatMap(tree).compactMap { cpuTicks($0) }.reduce(0, +)
    }

    /// VmHWM (kB) summed over the trees of `roots`.
    static func treePeakKilobytes(_ roots: [pid_t]) -> Int {
        roots.flatMap(tree).compactMap { statusKilobytes($0, "VmHWM") }.reduce(0, +)
    }
}

// MARK: - A raw libdbus client

/// A private session-bus connection driven by hand (send, read_write, pop): every message is
/// stamped the moment it is popped, and calls can be pipelined. One thread at a time.
final class RawBus {
    struct Message {
        var type: Int32
        var serial: UInt32
        var replySerial: UInt32
        var sender: String?
        var interface: String?
        var member: String?
        var errorName: String?
        /// Top-level string arguments, in order (NameOwnerChanged: name, old, new).
        var strings: [String] = []
        /// For a method return carrying one variant: its string or 64-bit integer content.
        var variantString: String?
        var variantInt64: Int64?
        /// For PropertiesChanged: the new PlaybackStatus, when it changed.
        var playbackStatus: String?
        var at: Stamp

        var isReply: Bool { type == CDBUS_MESSAGE_TYPE_METHOD_RETURN || type == CDBUS_MESSAGE_TYPE_ERROR }
    }

    static let mprisPath = "/org/mpris/MediaPlayer2"
    static let player = "org.mpris.MediaPlayer2.Player"
    static let properties = "org.freedesktop.DBus.Properties"

    private let connection: OpaquePointer
    /// Messages popped but not yet claimed by a wait.
    private(set) var inbox: [Message] = []

    init() throws {
        dbus_threads_init_default()
        var error = DBusError()
        dbus_error_init(&error)
        guard let connection = dbus_bus_get_private(DBUS_BUS_SESSION, &error) else {
            let message = error.message.map { String(cString: $0) } ?? "?"
            dbus_error_free(&error)
            throw BusError("cannot connect to the session bus: \(message)")
        }
        self.connection = connection
        dbus_connection_set_exit_on_disconnect(connection, 0)
    }

    deinit {
        dbus_connection_close(connection)
        dbus_connection_unref(connection)
    }

    func addMatch(_ rule: String) throws {
        var error = DBusError()
        dbus_error_init(&error)
        dbus_bus_add_match(connection, rule, &error)
        if dbus_error_is_set(&error) != 0 {
            let message = error.message.map { String(cString: $0) } ?? "?"
            dbus_error_free(&error)
            throw BusError("AddMatch \(rule): \(message)")
        }
    }

    /// Queues a method call with string arguments; returns its serial. `flush` writes it out now.
    @discardableResult
    func send(destination: String, path: String = RawBus.mprisPath, interface: String, member: String,
              strings: [String] = [], flush: Bool = true) throws -> UInt32 {
        guard let message = dbus_message_new_method_call(destination, path, interface, member) else {
            throw BusError("cannot build \(interface).\(member)")
        }
        defer { dbus_message_unref(message) }
        var iterator = DBusMessageIter()
        dbus_message_iter_init_append(message, &iterator)
        for string in strings {
            let copy = strdup(string)
            defer { free(copy) }
            var pointer = UnsafePointer<CChar>(copy)
            guard dbus_message_iter_append_basic(&iterator, CDBUS_TYPE_STRING, &pointer) != 0 else {
                throw BusError("out of memory")
            }
        }
        var serial: UInt32 = 0
        guard dbus_connection_send(connection, message, &serial) != 0 else { throw BusError("out of memory sending \(member)") }
        if flush { dbus_connection_flush(connection) }
        return serial
    }

    func flush() { dbus_connection_flush(connection) }

    /// One read/write round (blocking up to `milliseconds`), then everything received is
    /// popped: handed to `each` when given (not kept), else appended to the inbox.
    /// False when the connection is gone.
    @discardableResult
    func pump(milliseconds: Int32, parse: Bool = true, _ each: ((Message) -> Void)? = nil) -> Bool {
        let alive = dbus_connection_read_write(connection, milliseconds) != 0
        while let raw = dbus_connection_pop_message(connection) {
            let message = parse ? describe(raw) : quick(raw)
            dbus_message_unref(raw)
            if let each { each(message) } else { inbox.append(message) }
        }
        return alive
    }

    /// Waits (up to `timeout`) for a message satisfying `predicate`, looking at the inbox first;
    /// removes it from the inbox and returns it.
    func wait(timeout: TimeInterval, where predicate: (Message) -> Bool) -> Message? {
        let deadline = Stamp.now().monotonic + UInt64(timeout * 1e9)
        while true {
            if let index = inbox.firstIndex(where: predicate) { return inbox.remove(at: index) }
            let now = Stamp.now().monotonic
            if now >= deadline { return nil }
            if !pump(milliseconds: Int32(min(100, max(1, (deadline - now) / 1_000_000)))) { return nil }
        }
    }

    func clearInbox() { inbox.removeAll() }

    /// Calls and waits for the reply (the inbox keeps what else arrives).
    func call(destination: String, path: String = RawBus.mprisPath, interface: String, member: String,
              strings: [String] = [], timeout: TimeInterval = 10) throws -> Message {
        let serial = try send(destination: destination, path: path, interface: interface, member: member, strings: strings)
        guard let reply = wait(timeout: timeout, where: { $0.isReply && $0.replySerial == serial }) else {
            throw BusError("no reply to \(interface).\(member) from \(destination) within \(timeout) s")
        }
        if let error = reply.errorName { throw BusError("\(interface).\(member) on \(destination): \(error)") }
        return reply
    }

    func getProperty(_ destination: String, _ interface: String, _ property: String) throws -> Message {
        try call(destination: destination, interface: RawBus.properties, member: "Get", strings: [interface, property])
    }

    func nameHasOwner(_ name: String) -> Bool {
        guard let reply = try? call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                    interface: "org.freedesktop.DBus", member: "NameHasOwner", strings: [name]) else { return false }
        return reply.strings.first == "true"
    }

    private func quick(_ raw: OpaquePointer) -> Message {
        Message(type: dbus_message_get_type(raw), serial: dbus_message_get_serial(raw),
                replySerial: dbus_message_get_reply_serial(raw), sender: nil, interface: nil, member: nil,
                errorName: dbus_message_get_error_name(raw).map { String(cString: $0) }, at: Stamp.now())
    }

    private func describe(_ raw: OpaquePointer) -> Message {
        var message = quick(raw)
        message.sender = dbus_message_get_sender(raw).map { String(cString: $0) }
        message.interface = dbus_message_get_interface(raw).map { String(cString: $0) }
        message.member = dbus_message_get_member(raw).map { String(cString: $0) }
        var top = DBusMessageIter()
        guard dbus_message_iter_init(raw, &top) != 0 else { return message }
        repeat {
            let type = dbus_message_iter_get_arg_type(&top)
            if type == CDBUS_TYPE_STRING, let string = Self.string(&top) {
                message.strings.append(string)
            } else if type == CDBUS_TYPE_BOOLEAN {
                var value: dbus_bool_t = 0
                dbus_message_iter_get_basic(&top, &value)
                message.strings.append(value != 0 ? "true" : "false")
            } else if type == CDBUS_TYPE_VARIANT {
                var inner = DBusMessageIter()
                dbus_message_iter_recurse(&top, &inner)
                Self.readVariant(&inner, into: &message)
            } else if type == CDBUS_TYPE_ARRAY, message.member == "PropertiesChanged" {
                var array = DBusMessageIter()
                dbus_message_iter_recurse(&top, &array)
                while dbus_message_iter_get_arg_type(&array) == CDBUS_TYPE_DICT_ENTRY {
                    var entry = DBusMessageIter()
                    dbus_message_iter_recurse(&array, &entry)
                    if Self.string(&entry) == "PlaybackStatus", dbus_message_iter_next(&entry) != 0 {
                        var variant = DBusMessageIter()
                        dbus_message_iter_recurse(&entry, &variant)
                        message.playbackStatus = Self.string(&variant)
                    }
                    if dbus_message_iter_next(&array) == 0 { break }
                }
            }
        } while dbus_message_iter_next(&top) != 0
        return message
    }

    private static func readVariant(_ inner: inout DBusMessageIter, into message: inout Message) {
        switch dbus_message_iter_get_arg_type(&inner) {
        case CDBUS_TYPE_STRING:
            message.variantString = string(&inner)
        case CDBUS_TYPE_INT64:
            var value: Int64 = 0
            dbus_message_iter_get_basic(&inner, &value)
            message.variantInt64 = value
        default:
            break
        }
    }

    private static func string(_ iterator: inout DBusMessageIter) -> String? {
        guard dbus_message_iter_get_arg_type(&iterator) == CDBUS_TYPE_STRING else { return nil }
        var pointer: UnsafePointer<CChar>?
        dbus_message_iter_get_basic(&iterator, &pointer)
        return pointer.map { String(cString: $0) }
    }
}

// MARK: - What a sink plays, on the monotonic clock

/// `parec` of a sink's monitor (s16le stereo 44.1 kHz), each read stamped on arrival. The
/// monitor delivers a steady byte stream once it runs (its first data comes ~2 s late), so
/// byte N was captured at `origin + N / rate`, where `origin` is the lower envelope of
/// (arrival time − bytes so far / rate) over all reads: at most one fragment (10 ms) late.
final class MonitorRecorder: @unchecked Sendable {
    static let bytesPerSecond = 44_100 * 2 * 2
    let process: Spawned
    private let condition = NSCondition()
    private var bytes = Data()
    /// (arrival, total bytes after this read)
    private var reads: [(at: UInt64, total: Int)] = []
    private var closed = false

    init(device: String = "headphones.monitor", logPath: String?) throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw BusError("pipe: \(String(cString: strerror(errno)))") }
        // Close-on-exec, so no other child holds the write end (children are spawned from one thread).
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        do {
            process = try Spawned("parec", ["--raw", "--format=s16le", "--rate=44100", "--channels=2",
                                            "--latency-msec=10", "-d", device],
                                  logPath: logPath, stdoutDescriptor: fds[1])
        } catch {
            close(fds[0])
            close(fds[1])
            throw error
        }
        close(fds[1])
        bytes.reserveCapacity(16 * Self.bytesPerSecond)
        let readEnd = fds[0]
        let thread = Thread { [self] in
            let buffer = UnsafeMutableRawPointer.allocate(byteCount: 1 << 16, alignment: 16)
            defer { buffer.deallocate() }
            while true {
                let count = read(readEnd, buffer, 1 << 16)
                if count < 0 && errno == EINTR { continue }
                if count <= 0 { break }
                let at = Stamp.now().monotonic
                condition.withLock {
                    bytes.append(buffer.assumingMemoryBound(to: UInt8.self), count: count)
                    reads.append((at, bytes.count))
                    condition.broadcast()
                }
            }
            close(readEnd)
            condition.withLock {
                closed = true
                condition.broadcast()
            }
        }
        thread.start()
    }

    /// Waits until data has flowed for `seconds` (the monitor's late start is over).
    func waitUntilFlowing(seconds: Double = 0.5, timeout: TimeInterval = 8) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let first = reads.first, let last = reads.last, Double(last.at - first.at) / 1e9 >= seconds { return }
            if closed || !condition.wait(until: deadline) {
                throw BusError("parec delivered \(bytes.count) bytes within \(timeout) s: \(process.logTail())")
            }
        }
    }

    /// The capture time (monotonic ns) of byte `offset`; nil before any data.
    func time(ofByte offset: Int) -> UInt64? {
        condition.withLock {
            guard let first = reads.first else { return nil }
            // Skip the first reads: the late start's burst (if any) can only raise the envelope,
            // but stay clear of it all the same.
            let origin = reads.filter { $0.at >= first.at + 300_000_000 }.map {
                Double($0.at) - Double($0.total) * 1e9 / Double(Self.bytesPerSecond)
            }.min() ?? (Double(first.at) - Double(first.total) * 1e9 / Double(Self.bytesPerSecond))
            return UInt64(origin + Double(offset) * 1e9 / Double(Self.bytesPerSecond))
        }
    }

    /// The byte captured at monotonic time `ns` (clamped to 0).
    func byte(atTime ns: UInt64) -> Int? {
        guard let zero = time(ofByte: 0) else { return nil }
        let seconds = (Double(ns) - Double(zero)) / 1e9
        return max(0, Int(seconds * Double(Self.bytesPerSecond)) / 4 * 4)
    }

    /// Waits until bytes captured up to monotonic time `ns` have arrived.
    func waitForCapture(through ns: UInt64, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let last = byte(atTime: ns), condition.withLock({ bytes.count }) >= last { return true }
            condition.withLock { _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05))) }
        }
        return false
    }

    var data: Data { condition.withLock { bytes } }

    /// The first 5 ms window at or after byte `from` whose RMS is above the threshold: its byte offset.
    func firstLoudByte(from: Int) -> Int? {
        let recorded = data
        guard from < recorded.count else { return nil }
        let windows = Loudness.windows(recorded.subdata(in: from..<recorded.count))
        return windows.firstIndex(of: true).map { from + $0 * Loudness.framesPerWindow * 4 }
    }

    /// Waits up to `timeout` for a loud window after byte `from`.
    func waitForLoud(from: Int, timeout: TimeInterval) -> Int? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var checked = from
        while Date() < deadline {
            let count = condition.withLock { bytes.count }
            if count > checked, let found = firstLoudByte(from: max(from, checked - Loudness.framesPerWindow * 4)) {
                return found
            }
            checked = count
            condition.withLock { _ = condition.wait(until: min(deadline, Date(timeIntervalSinceNow: 0.05))) }
        }
        return nil
    }

    func stop() {
        process.stop(signal: SIGINT, grace: 2)
    }
}

// MARK: - mpd's text protocol

/// A blocking TCP client of mpd's protocol on 127.0.0.1.
final class MPDProtocol {
    private let socketDescriptor: Int32
    private var pending = Data()

    init(port: UInt16, timeout: TimeInterval = 10) throws {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            if connected == 0 {
                // A read that waits longer than this fails (a hung mpd cannot hang the benchmark).
                var wait = timeval(tv_sec: 10, tv_usec: 0)
                setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
                setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
                socketDescriptor = descriptor
                break
            }
            close(descriptor)
            if Date() >= deadline { throw BusError("mpd does not accept connections on port \(port)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        guard let greeting = try readLine(), greeting.hasPrefix("OK MPD") else {
            throw BusError("mpd did not greet")
        }
    }

    deinit { close(socketDescriptor) }

    private func readLine() throws -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                pending = Data(pending[pending.index(after: newline)...])
                return line
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = read(socketDescriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return nil }
            pending.append(contentsOf: buffer[0..<count])
        }
    }

    /// Sends one command; returns its "key: value" lines. An ACK is thrown.
    @discardableResult
    func command(_ text: String) throws -> [String: String] {
        let line = Array((text + "\n").utf8)
        guard write(socketDescriptor, line, line.count) == line.count else { throw BusError("mpd: write failed") }
        var fields: [String: String] = [:]
        while let reply = try readLine() {
            if reply == "OK" { return fields }
            if reply.hasPrefix("ACK") { throw BusError("mpd: \(text): \(reply)") }
            if let colon = reply.range(of: ": ") {
                fields[String(reply[..<colon.lowerBound])] = String(reply[colon.upperBound...])
            }
        }
        throw BusError("mpd closed the connection during \(text)")
    }

    /// A free TCP port on 127.0.0.1 (bound to port 0 and released).
    static func freePort() throws -> UInt16 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0
            }
        }
        guard ok else { throw BusError("no free port") }
        return UInt16(bigEndian: address.sin_port)
    }
}

/// Medians and percentiles of round trips (seconds).
struct PeerTimings: CustomStringConvertible {
    var seconds: [Double]

    /// Nearest rank.
    func percentile(_ fraction: Double) -> Double {
        let ordered = seconds.sorted()
        guard !ordered.isEmpty else { return .nan }
        let rank = Int((fraction * Double(ordered.count)).rounded(.up)) - 1
        return ordered[min(max(rank, 0), ordered.count - 1)]
    }
    var median: Double { percentile(0.5) }
    var description: String {
        String(format: "median %.2f ms, p99 %.2f ms, max %.2f ms over %d", median * 1000, percentile(0.99) * 1000,
               (seconds.max() ?? .nan) * 1000, seconds.count)
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// One end of the helper's socket (`AF_UNIX`, `SOCK_STREAM`): whole frames out and in, a file
/// descriptor along with a frame when needed (`SCM_RIGHTS`). Owns the descriptor.
///
/// Sends never raise SIGPIPE (`MSG_NOSIGNAL`): a dead helper is an error, not a dead daemon.
/// Not thread-safe: one user at a time.
public final class WireSocket {
    public private(set) var descriptor: Int32
    private var buffer: [UInt8] = []
    private var start = 0
    private var receivedDescriptors: [Int32] = []
    /// What one recvmsg reads into, reused.
    private var scratch = [UInt8](repeating: 0, count: 64 * 1024)

    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close() }

    /// A connected pair: one end for the daemon, one for the helper (close-on-exec both; the
    /// helper's end is put in place by the spawn).
    public static func pair() throws(WireError) -> (WireSocket, WireSocket) {
        var ends: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .system("socketpair", errno)
        }
        return (WireSocket(descriptor: ends[0]), WireSocket(descriptor: ends[1]))
    }

    public func close() {
        guard descriptor >= 0 else { return }
        Glibc.close(descriptor)
        descriptor = -1
        for received in receivedDescriptors { Glibc.close(received) }
        receivedDescriptors = []
    }

    /// Gives up the descriptor without closing it (it was handed to a child).
    public func release() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    // MARK: Sending

    /// Sends `frame` whole (blocking until the peer has room); `passing` travels along.
    public func send(_ frame: WireFrame, passing passed: Int32? = nil) throws(WireError) {
        let bytes = frame.encoded
        var sent = 0
        while sent < bytes.count {
            let result = bytes.withUnsafeBytes { raw -> Int in
                let rest = UnsafeMutableRawPointer(mutating: raw.baseAddress! + sent)
                if sent == 0, let passed { return Self.sendWithDescriptor(descriptor, rest, raw.count - sent, passed) }
                return Glibc.send(descriptor, rest, raw.count - sent, Int32(MSG_NOSIGNAL))
            }
            if result < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE || errno == ECONNRESET { throw .closed }
                throw .system("send", errno)
            }
            sent += result
        }
    }

    private static func sendWithDescriptor(_ socket: Int32, _ bytes: UnsafeMutableRawPointer, _ count: Int, _ passed: Int32) -> Int {
        var vector = iovec(iov_base: bytes, iov_len: count)
        let space = ControlMessage.space
        let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: MemoryLayout<Int>.alignment)
        defer { control.deallocate() }
        ControlMessage.writeRights(passed, into: control)
        return withUnsafeMutablePointer(to: &vector) { vectorPointer in
            var message = msghdr()
            message.msg_iov = vectorPointer
            message.msg_iovlen = 1
            message.msg_control = control
            message.msg_controllen = space
            return sendmsg(socket, &message, Int32(MSG_NOSIGNAL))
        }
    }

    // MARK: Receiving

    /// The next frame, waiting at most `timeout` seconds (nil: for ever). Throws `.closed` at
    /// the end of the stream, `.timedOut`, or `.malformed` for a frame that breaks the rules.
    public func receive(timeout: Double? = nil) throws(WireError) -> WireFrame {
        let deadline = timeout.map { Self.now() + $0 }
        while true {
            if let frame = try takeFrame() { return frame }
            try fill(deadline: deadline)
        }
    }

    /// A descriptor that arrived with the frames received so far (the oldest first), if any.
    public func takeReceivedDescriptor() -> Int32? {
        receivedDescriptors.isEmpty ? nil : receivedDescriptors.removeFirst()
    }

    private func takeFrame() throws(WireError) -> WireFrame? {
        let available = buffer.count - start
        guard available >= WireFrame.headerLength else { return nil }
        let length = Int(buffer[start]) | Int(buffer[start + 1]) << 8 | Int(buffer[start + 2]) << 16 | Int(buffer[start + 3]) << 24
        guard length >= 1, length <= WireFrame.maximumLength else { throw .malformed("frame length \(length)") }
        guard available >= 4 + length else { return nil }
        guard let kind = WireKind(rawValue: buffer[start + 4]) else { throw .malformed("unknown kind \(buffer[start + 4])") }
        let payload = Array(buffer[(start + 5)..<(start + 4 + length)])
        start += 4 + length
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
            start = 0
        }
        return WireFrame(kind, payload)
    }

    private func fill(deadline: Double?) throws(WireError) {
        if let deadline {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while true {
                let left = deadline - Self.now()
                guard left > 0 else { throw .timedOut }
                let result = poll(&poller, 1, Int32(min(left * 1000, 60_000).rounded(.up)))
                if result > 0 { break }
                if result < 0, errno != EINTR { throw .system("poll", errno) }
            }
        }
        if start > 0, start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 1 << 20 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = scratch.count
        let space = ControlMessage.space
        let control = UnsafeMutableRawPointer.allocate(byteCount: space, alignment: MemoryLayout<Int>.alignment)
        defer { control.deallocate() }
        var received = 0
        while true {
            received = scratch.withUnsafeMutableBytes { raw -> Int in
                var vector = iovec(iov_base: raw.baseAddress!, iov_len: chunk)
                return withUnsafeMutablePointer(to: &vector) { vectorPointer in
                    var message = msghdr()
                    message.msg_iov = vectorPointer
                    message.msg_iovlen = 1
                    message.msg_control = control
                    message.msg_controllen = space
                    let count = recvmsg(descriptor, &message, Int32(MSG_CMSG_CLOEXEC))
                    if count > 0, message.msg_controllen > 0,
                       let passed = ControlMessage.readRights(control, length: Int(message.msg_controllen)) {
                        receivedDescriptors.append(passed)
                    }
                    return count
                }
            }
            if received < 0, errno == EINTR { continue }
            break
        }
        if received == 0 { throw .closed }
        if received < 0 {
            if errno == ECONNRESET { throw .closed }
            throw .system("recvmsg", errno)
        }
        buffer.append(contentsOf: scratch[0..<received])
        // More than a few descriptors waiting means the peer is not following the protocol.
        if receivedDescriptors.count > 4 { throw .malformed("descriptors without requests") }
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// The `SCM_RIGHTS` control message of one descriptor (the CMSG_* macros do not import).
enum ControlMessage {
    private static var headerLength: Int { MemoryLayout<cmsghdr>.size }
    private static func align(_ length: Int) -> Int {
        let unit = MemoryLayout<Int>.size
        return (length + unit - 1) / unit * unit
    }
    static var space: Int { align(headerLength) + align(MemoryLayout<Int32>.size) }

    static func writeRights(_ descriptor: Int32, into control: UnsafeMutableRawPointer) {
        control.initializeMemory(as: UInt8.self, repeating: 0, count: space)
        let header = control.assumingMemoryBound(to: cmsghdr.self)
        header.pointee.cmsg_len = align(headerLength) + MemoryLayout<Int32>.size
        header.pointee.cmsg_level = SOL_SOCKET
        header.pointee.cmsg_type = Int32(SCM_RIGHTS)
        control.advanced(by: align(headerLength)).storeBytes(of: descriptor, as: Int32.self)
    }

    static func readRights(_ control: UnsafeMutableRawPointer, length: Int) -> Int32? {
        guard length >= align(headerLength) + MemoryLayout<Int32>.size else { return nil }
        let header = control.assumingMemoryBound(to: cmsghdr.self)
        guard header.pointee.cmsg_level == SOL_SOCKET, header.pointee.cmsg_type == Int32(SCM_RIGHTS) else { return nil }
        // Room for one: more than one descriptor per frame breaks the protocol, and the kernel
        // closes those that do not fit (MSG_CTRUNC).
        return control.advanced(by: align(headerLength)).load(as: Int32.self)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One client's connection: a non-blocking stream socket, closed when released.
final class ConnectedSocket {
    let descriptor: Int32
    private var closed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        // A client that goes away while we write must not end the daemon with SIGPIPE:
        // send(MSG_NOSIGNAL) below, and this for good measure.
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_KEEPALIVE, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    deinit { close() }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    enum ReadResult {
        case bytes(Int)
        case wouldBlock
        case endOfStream
        case failed(Int32)
    }

    /// Reads what is there into `buffer`, without waiting.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
            if count > 0 { return .bytes(count) }
            if count == 0 { return .endOfStream }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
            return .failed(errno)
        }
    }

    enum WriteResult {
        case wrote(Int)
        case wouldBlock
        case failed(Int32)
    }

    /// Writes as much of `bytes` as the socket takes now.
    func write(_ bytes: UnsafeRawBufferPointer) -> WriteResult {
        while true {
            let count = send(descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
            if count >= 0 { return .wrote(count) }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
            return .failed(errno)
        }
    }
}

import Foundation
import Glibc
import XCTest

/// A raw TCP client on 127.0.0.1: what the tests send is exactly what the server reads.
final class TestConnection {
    let descriptor: Int32

    /// Connects within `connectTimeout` (a full listen queue makes connect wait, not fail).
    init(port: Int, receiveBuffer: Int32? = nil, connectTimeout: Double = 5) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXFailure(call: "socket", errno: errno) }
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        var failure = connected == 0 ? 0 : errno
        if failure == EINPROGRESS {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            if poll(&poller, 1, Int32(connectTimeout * 1000)) == 1 {
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length)
            } else {
                failure = ETIMEDOUT
            }
        }
        guard failure == 0 else {
            Glibc.close(descriptor)
            throw POSIXFailure(call: "connect", errno: failure)
        }
        _ = fcntl(descriptor, F_SETFL, flags)
    }

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { Glibc.close(descriptor) }

    /// Starts `count` connects at once and keeps those done within `timeout` (blocking again);
    /// the others (refused, or waiting in a full listen queue) are dropped.
    static func openMany(port: Int, count: Int, timeout: Double) -> [TestConnection] {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var pending: [Int32] = []
        for _ in 0..<count {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                | Int32(SOCK_NONBLOCK.rawValue), 0)
            guard descriptor >= 0 else { continue }
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            pending.append(descriptor)
        }
        usleep(UInt32(timeout * 1e6))
        var connected: [TestConnection] = []
        for descriptor in pending {
            var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            var failure: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            if poll(&poller, 1, 0) == 1, getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &failure, &length) == 0, failure == 0 {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
                connected.append(TestConnection(descriptor: descriptor))
            } else {
                Glibc.close(descriptor)
            }
        }
        return connected
    }

    /// Sends everything, or as much as the peer takes before it goes away.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Reads until the server closes the connection (or `timeout` passes).
    func readUntilClosed(timeout: Double = 5) -> String {
        var received: [UInt8] = []
        _ = readBytes(into: &received, timeout: timeout) { _ in false }
        return String(decoding: received, as: UTF8.self)
    }

    /// Reads until what came holds `marker` `count` times; nil if it did not before the end.
    func read(until marker: String, count: Int = 1, timeout: Double = 5) -> String? {
        var received: [UInt8] = []
        let found = readBytes(into: &received, timeout: timeout) { bytes in
            String(decoding: bytes, as: UTF8.self).components(separatedBy: marker).count - 1 >= count
        }
        return found ? String(decoding: received, as: UTF8.self) : nil
    }

    /// Whether the server closed the connection (EOF or reset) within `timeout`, ignoring data.
    func isClosed(within timeout: Double) -> Bool {
        var ignored: [UInt8] = []
        let deadline = Self.now() + timeout
        while Self.now() < deadline {
            ignored.removeAll()
            if !readBytes(into: &ignored, timeout: deadline - Self.now(), stopAfterOneRead: true) { return true }
        }
        return false
    }

    /// false at EOF/error, true when `done` said so, when time ran out, or after one read.
    private func readBytes(into received: inout [UInt8], timeout: Double, stopAfterOneRead: Bool = false,
                           done: ([UInt8]) -> Bool = { _ in false }) -> Bool {
        let deadline = Self.now() + timeout
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let left = deadline - Self.now()
            if left <= 0 { return true }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(max(1, left * 1000)))
            if ready < 0 && errno == EINTR { continue }
            if ready <= 0 { return true }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return false }
            received += chunk[0..<count]
            if stopAfterOneRead || done(received) { return true }
        }
    }

    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

struct POSIXFailure: Error {
    let call: String
    let errno: Int32
}

/// A response as text, split for the assertions.
struct ReceivedResponse {
    let status: Int
    let head: String
    let body: String

    init(_ text: String) {
        let parts = text.components(separatedBy: "\r\n\r\n")
        head = parts.first ?? ""
        body = parts.dropFirst().joined(separator: "\r\n\r\n")
        let statusLine = head.split(separator: "\r\n").first ?? ""
        status = statusLine.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
    }
}

/// One request on its own connection (`Connection: close`), the answer read to the end.
func exchange(port: Int, _ raw: String) throws -> ReceivedResponse {
    let connection = try TestConnection(port: port)
    connection.send(raw)
    return ReceivedResponse(connection.readUntilClosed())
}

func get(port: Int, _ target: String, headers: String = "") throws -> ReceivedResponse {
    try exchange(port: port, "GET \(target) HTTP/1.1\r\nHost: localhost\r\n\(headers)Connection: close\r\n\r\n")
}

/// Waits up to `timeout` for `condition`, checking every 10 ms.
func eventually(timeout: Double = 5, _ condition: () -> Bool) -> Bool {
    let deadline = TestConnection.now() + timeout
    while TestConnection.now() < deadline {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

import CurlKit
import Foundation
import XCTest
@testable import TestSupport

/// Runs one `HTTPTransfer` and records what it delivered, in order. With `readsInHandler`
/// it drains the buffer on every `.bytesAvailable` (from the transfer thread, as a decoder
/// feeding from the stream would); otherwise the test reads itself.
final class TransferRecorder: @unchecked Sendable {
    enum Entry: Equatable {
        case head
        case bytes
        case ended
    }

    private let lock = NSLock()
    private var _entries: [Entry] = []
    private var _head: HTTPResponseHead?
    private var _result: Result<Void, TransferFailure>?
    private var _body: [UInt8] = []
    private var _endedCount = 0
    private let endedSignal = DispatchSemaphore(value: 0)
    let readsInHandler: Bool
    private(set) var transfer: HTTPTransfer!

    init(_ request: HTTPRequest, bufferCapacity: Int = 64 * 1024, readsInHandler: Bool = true,
         onEvent: (@Sendable (HTTPTransfer.Event) -> Void)? = nil) {
        self.readsInHandler = readsInHandler
        transfer = HTTPTransfer(request, bufferCapacity: bufferCapacity) { [weak self] event in
            self?.record(event)
            onEvent?(event)
        }
    }

    private func record(_ event: HTTPTransfer.Event) {
        switch event {
        case .head(let head):
            lock.withLock {
                _entries.append(.head)
                _head = head
            }
        case .bytesAvailable:
            lock.withLock { _entries.append(.bytes) }
            if readsInHandler { drain() }
        case .ended(let result):
            if readsInHandler { drain() }
            lock.withLock {
                _entries.append(.ended)
                _result = result
                _endedCount += 1
            }
            endedSignal.signal()
        }
    }

    /// Reads everything buffered now into `body`.
    @discardableResult
    func drain() -> Int {
        var chunk = [UInt8](repeating: 0, count: 7000)  // not a power of two: exercises the ring's wrap
        var total = 0
        while true {
            let count = chunk.withUnsafeMutableBytes { transfer.read(into: $0) }
            if count == 0 { return total }
            total += count
            lock.withLock { _body.append(contentsOf: chunk[0..<count]) }
        }
    }

    func start() -> Self {
        transfer.start()
        return self
    }

    /// Waits for `.ended`; fails the test after `timeout`.
    @discardableResult
    func waitForEnd(timeout: Double = 15, file: StaticString = #filePath, line: UInt = #line) -> Result<Void, TransferFailure>? {
        if endedSignal.wait(timeout: .now() + timeout) == .timedOut {
            XCTFail("the transfer did not end within \(timeout) s", file: file, line: line)
            return nil
        }
        return result
    }

    var entries: [Entry] { lock.withLock { _entries } }
    var head: HTTPResponseHead? { lock.withLock { _head } }
    var result: Result<Void, TransferFailure>? { lock.withLock { _result } }
    var body: [UInt8] { lock.withLock { _body } }
    var endedCount: Int { lock.withLock { _endedCount } }

    var failure: TransferFailure? {
        if case .failure(let failure) = result { return failure }
        return nil
    }

    var succeeded: Bool {
        if case .success = result { return true }
        return false
    }
}


/// How many descriptors this process has open.
func openDescriptorCount() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// A local TCP port nothing listens on (bound, then closed again).
func closedPort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
            bind(fd, pointer, length)
            return getsockname(fd, pointer, &length)
        }
    }
    return Int(UInt16(bigEndian: address.sin_port))
}

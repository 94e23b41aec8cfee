import CurlKit
import XCTest
@testable import TestSupport

final class BackpressureTests: ServerTestCase {
    /// A fast server, a reader that does not read: the buffer fills to its capacity and the
    /// transfer stops; reading then takes it to the end with every byte in order.
    func testAReaderThatDoesNotReadHoldsTheTransferBack() throws {
        let size = 8 * 1024 * 1024
        let capacity = 64 * 1024
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/fixed?size=\(size)")),
                                        bufferCapacity: capacity, readsInHandler: false).start()
        let transfer = recorder.transfer!
        XCTAssertEqual(transfer.bufferCapacity, capacity)
        XCTAssertTrue(eventually { transfer.bufferedByteCount > capacity - 16 * 1024 }, "the buffer fills")
        // It stays put: nothing more is taken in while nobody reads.
        var received = transfer.bytesReceived
        for _ in 0..<5 {
            usleep(100_000)
            XCTAssertLessThanOrEqual(transfer.bufferedByteCount, capacity)
            XCTAssertEqual(transfer.bytesReceived, received, "bytesReceived stops growing")
            received = transfer.bytesReceived
        }
        XCTAssertLessThanOrEqual(received, Int64(capacity))
        XCTAssertNil(recorder.result)

        // Now read, slowly at first, then all.
        var body = [UInt8]()
        body.reserveCapacity(size)
        var chunk = [UInt8](repeating: 0, count: 5000)
        let deadline = ContinuousClock.now + .seconds(60)
        while recorder.result == nil || transfer.bufferedByteCount > 0, ContinuousClock.now < deadline {
            let count = chunk.withUnsafeMutableBytes { transfer.read(into: $0) }
            if count == 0 {
                usleep(1000)
                continue
            }
            body.append(contentsOf: chunk[0..<count])
            XCTAssertLessThanOrEqual(transfer.bufferedByteCount, capacity)
        }
        XCTAssertTrue(recorder.succeeded, "\(String(describing: recorder.result))")
        XCTAssertEqual(body.count, size)
        XCTAssertTrue(body == pattern(0..<size), "the exact bytes, in order")
        XCTAssertEqual(transfer.bytesReceived, Int64(size))
    }

    /// Paused by us for longer than stallTimeout is not a stall.
    func testAPausedTransferIsNotStalled() throws {
        let size = 1024 * 1024
        var request = HTTPRequest(url: try server.url("/fixed?size=\(size)"))
        request.stallTimeout = 0.5
        let recorder = TransferRecorder(request, bufferCapacity: 32 * 1024, readsInHandler: false).start()
        XCTAssertTrue(eventually { recorder.transfer.bufferedByteCount > 0 })
        usleep(1_500_000)
        XCTAssertNil(recorder.result, "still waiting for the reader, not failed")
        var total = 0
        var chunk = [UInt8](repeating: 0, count: 16384)
        let deadline = ContinuousClock.now + .seconds(30)
        while recorder.result == nil || recorder.transfer.bufferedByteCount > 0, ContinuousClock.now < deadline {
            let count = chunk.withUnsafeMutableBytes { recorder.transfer.read(into: $0) }
            total += count
            if count == 0 { usleep(1000) }
        }
        XCTAssertTrue(recorder.succeeded, "\(String(describing: recorder.result))")
        XCTAssertEqual(total, size)
    }

    /// One transfer held back by its reader does not hold back the others on the thread.
    func testAPausedTransferDoesNotHoldBackOthers() throws {
        let held = TransferRecorder(HTTPRequest(url: try server.url("/fixed?size=4000000")),
                                    bufferCapacity: 16384, readsInHandler: false).start()
        XCTAssertTrue(eventually { held.transfer.bufferedByteCount > 0 })
        let others = try (0..<4).map { index in
            TransferRecorder(HTTPRequest(url: try server.url("/fixed?size=\(300_000 + index)"))).start()
        }
        for (index, other) in others.enumerated() {
            other.waitForEnd()
            XCTAssertTrue(other.succeeded)
            XCTAssertEqual(other.body.count, 300_000 + index)
        }
        XCTAssertNil(held.result)
        XCTAssertLessThanOrEqual(held.transfer.bytesReceived, 16384)
        held.transfer.cancel()
    }

    func testASmallCapacityIsRoundedUpToCurlsLargestWrite() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/fixed?size=200000")), bufferCapacity: 10).start()
        recorder.waitForEnd()
        XCTAssertEqual(recorder.transfer.bufferCapacity, 16384)
        XCTAssertTrue(recorder.succeeded)
        XCTAssertEqual(recorder.body, pattern(0..<200_000))
    }
}

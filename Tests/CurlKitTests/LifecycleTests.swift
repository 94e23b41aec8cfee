import CurlKit
import Foundation
import XCTest
@testable import TestSupport

final class LifecycleTests: ServerTestCase {
    func testCancelFromAnotherThreadWhileActive() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/slow"))).start()
        XCTAssertTrue(eventually { recorder.body.count >= 3000 }, "the stream flows")
        let cancelled = DispatchSemaphore(value: 0)
        let transfer = recorder.transfer!
        Thread.detachNewThread {
            transfer.cancel()
            cancelled.signal()
        }
        XCTAssertEqual(cancelled.wait(timeout: .now() + 5), .success)
        let entriesAtCancel = recorder.entries.count
        usleep(400_000)  // the server sends every 50 ms
        XCTAssertEqual(recorder.entries.count, entriesAtCancel, "no event after cancel() returned")
        XCTAssertEqual(recorder.endedCount, 0, "no .ended after cancel")
        transfer.cancel()  // idempotent
        XCTAssertEqual(recorder.transfer.bytesReceived, Int64(recorder.body.count) + Int64(recorder.transfer.bufferedByteCount))
    }

    func testCancelInsideTheHeadHandler() throws {
        let box = TransferBox()
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/slow"))) { event in
            if case .head = event { box.transfer?.cancel() }
        }
        box.transfer = recorder.transfer
        _ = recorder.start()
        XCTAssertTrue(eventually { recorder.entries.contains(.head) })
        usleep(400_000)
        XCTAssertEqual(recorder.entries, [.head], "nothing after the cancel in the handler")
    }

    func testCancelBeforeStartMeansNothingHappens() throws {
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/fixed")))
        recorder.transfer.cancel()
        recorder.transfer.start()
        usleep(300_000)
        XCTAssertEqual(recorder.entries, [])
    }

    func testDroppingATransferWithoutCancelStopsIt() throws {
        let baseline = try warmedUpDescriptorCount()
        let events = EventCounter()
        do {
            let transfer = HTTPTransfer(HTTPRequest(url: try server.url("/slow")), bufferCapacity: 64 * 1024) { _ in
                events.add()
            }
            transfer.start()
            XCTAssertTrue(eventually { events.count >= 2 })
        }
        // deinit cancelled it: events stop, the socket closes.
        let atDrop = events.count
        XCTAssertTrue(eventually { openDescriptorCount() <= baseline }, "the connection is closed")
        usleep(300_000)
        XCTAssertLessThanOrEqual(events.count, atDrop + 1, "at most one event racing the drop")
        let settled = events.count
        usleep(300_000)
        XCTAssertEqual(events.count, settled)
    }

    func testFiftyTransfersInARowLeakNoDescriptors() throws {
        let baseline = try warmedUpDescriptorCount()
        for index in 0..<50 {
            let recorder = TransferRecorder(HTTPRequest(url: try server.url("/fixed?size=\(1000 + index)"))).start()
            recorder.waitForEnd()
            XCTAssertTrue(recorder.succeeded, "\(index): \(String(describing: recorder.result))")
            XCTAssertEqual(recorder.body.count, 1000 + index)
        }
        // Some failing ones too, and a cancelled one.
        for path in ["/short", "/missing", "/huge-header?size=20000"] {
            TransferRecorder(HTTPRequest(url: try server.url(path))).start().waitForEnd()
        }
        let cancelled = TransferRecorder(HTTPRequest(url: try server.url("/slow"))).start()
        XCTAssertTrue(eventually { !cancelled.body.isEmpty })
        cancelled.transfer.cancel()
        XCTAssertTrue(eventually { openDescriptorCount() <= baseline },
                      "descriptors: \(openDescriptorCount()) after, \(baseline) before")
    }

    func testEndedIsDeliveredOnceAndTheHandlerReleased() throws {
        // The handler holds the transfer strongly: after .ended the cycle must be gone.
        weak var weakTransfer: HTTPTransfer?
        let ended = DispatchSemaphore(value: 0)
        do {
            let box = TransferBox()
            let transfer = HTTPTransfer(HTTPRequest(url: try server.url("/fixed")), bufferCapacity: 16384) { event in
                if case .ended = event {
                    _ = box
                    ended.signal()
                }
            }
            box.strong = transfer
            weakTransfer = transfer
            transfer.start()
        }
        XCTAssertEqual(ended.wait(timeout: .now() + 10), .success)
        XCTAssertTrue(eventually { weakTransfer == nil }, "no retain cycle through the handler after .ended")
    }

    func testConnectionSocketsAreCloseOnExec() throws {
        _ = try warmedUpDescriptorCount()
        let before = inheritableDescriptors()
        let recorder = TransferRecorder(HTTPRequest(url: try server.url("/slow"))).start()
        XCTAssertTrue(eventually { !recorder.body.isEmpty })
        let during = inheritableDescriptors()
        recorder.transfer.cancel()
        XCTAssertEqual(during.subtracting(before), [], "a child started now would inherit these")
    }

    /// Runs one transfer first so the transfer thread and its multi handle exist, then counts.
    private func warmedUpDescriptorCount() throws -> Int {
        TransferRecorder(HTTPRequest(url: try server.url("/fixed"))).start().waitForEnd()
        usleep(100_000)
        return openDescriptorCount()
    }
}

/// Descriptors without FD_CLOEXEC.
func inheritableDescriptors() -> Set<Int32> {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
    return Set(names.compactMap(Int32.init).filter { fd in
        let flags = fcntl(fd, F_GETFD)
        return flags >= 0 && flags & FD_CLOEXEC == 0
    })
}

final class TransferBox: @unchecked Sendable {
    weak var transfer: HTTPTransfer?
    var strong: HTTPTransfer?
}

final class EventCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}

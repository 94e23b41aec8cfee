import Foundation
import XCTest
import DBusKit

/// Something set on one queue and read on the test thread.
final class Box<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: T
    init(_ value: T) { storage = value }
    var value: T {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }
}

/// A unique well-known name per test, so a real session bus never sees a clash.
func uniqueBusName(_ suffix: String) -> String {
    "org.aubade.DBusKitTest.p\(ProcessInfo.processInfo.processIdentifier).\(suffix)"
}

extension DispatchSemaphore {
    func waitOrFail(_ what: String, seconds: Double = 5, file: StaticString = #filePath, line: UInt = #line) {
        if wait(timeout: .now() + seconds) == .timedOut {
            XCTFail("timed out waiting for \(what)", file: file, line: line)
        }
    }
}

import Foundation
import XCTest

// The one way the tests wait for what has no event to wait for (a file appearing, another
// process's state). Where there is an event (a signal, a line of output, a callback), wait
// for that instead.

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass; whether it held.
public func eventually(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    repeat {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    } while Date() < deadline
    return try condition()
}

/// Polls `condition` until it holds; after `timeout` seconds fails the test, naming `what`
/// (and the last error `condition` threw: an error counts as "not yet"), and throws.
public func eventually(_ what: @autoclosure () -> String, timeout: TimeInterval = 5,
                       file: StaticString = #filePath, line: UInt = #line,
                       _ condition: () throws -> Bool) throws {
    var lastError: (any Error)?
    let held = eventually(timeout: timeout) {
        do {
            lastError = nil
            return try condition()
        } catch {
            lastError = error
            return false
        }
    }
    if held { return }
    let message = "timed out after \(timeout) s waiting for \(what())" + (lastError.map { " (last error: \($0))" } ?? "")
    XCTFail(message, file: file, line: line)
    throw DaemonError(message)
}

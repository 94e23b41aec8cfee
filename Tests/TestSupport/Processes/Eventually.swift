import Foundation

/// Polls `condition` every 10 ms until it holds or `timeout` seconds pass; whether it held.
/// For what has no event to wait for (a file appearing, another process's state); where there
/// is an event (a signal, a line of output, a callback), wait for that instead.
public func eventually(timeout: Double = 5, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date(timeIntervalSinceNow: timeout)
    repeat {
        if try condition() { return true }
        Thread.sleep(forTimeInterval: 0.01)
    } while Date() < deadline
    return try condition()
}

import Foundation
import XCTest

/// The private D-Bus session bus and PulseAudio that `scripts/audio-session` provides.
enum AudioSession {
    static let hint = "run via `make test` (scripts/audio-session)"

    /// Skips the test when there is no session to test in; under CI (`CI` set) that is a failure,
    /// so a broken harness cannot pass by skipping everything.
    static func require() throws {
        let environment = ProcessInfo.processInfo.environment
        let missing = ["DBUS_SESSION_BUS_ADDRESS", "PULSE_SERVER"].filter { (environment[$0] ?? "").isEmpty }
        guard !missing.isEmpty else { return }
        let message = "\(missing.joined(separator: " and ")) not set: \(hint)"
        if let ci = environment["CI"], !ci.isEmpty {
            XCTFail(message)
            throw SessionMissing(message: message)
        }
        throw XCTSkip(message)
    }

    struct SessionMissing: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

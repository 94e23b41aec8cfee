import Foundation

extension Sanitizer {
    /// Whether a test judges the daemon's resident memory: only without a sanitizer. Under
    /// AddressSanitizer freed memory waits in its quarantine (up to 256 MB), and ThreadSanitizer
    /// keeps shadow memory beside every byte: a figure there measures the sanitizer.
    static var judgesMemory: Bool { !isOn }
}

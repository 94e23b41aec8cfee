import Foundation

/// The sanitizer a test run is under (`AUBADE_SANITIZER`, set by scripts/run-tests in its
/// ThreadSanitizer and AddressSanitizer phases), and what that changes for the tests: a
/// sanitized aubade runs 5–20 times slower, and the phase runs every test in its parallel batch.
public enum Sanitizer {
    /// "thread", "address", or nil for a plain run.
    public static let name: String? = ProcessInfo.processInfo.environment["AUBADE_SANITIZER"].flatMap { $0.isEmpty ? nil : $0 }
    public static var isOn: Bool { name != nil }

    /// Whether a test judges time strictly here: only without a sanitizer. A test about time
    /// (rooms within 5 ms, an answer within 500 ms, a title within 100 ms of the music) runs
    /// alone in the plain phases and is judged there; in a sanitizer phase it runs beside the
    /// others, for its code paths (races, bad memory), and a strict judgement there would
    /// measure the sanitizer and the load, not aubade.
    public static var judgesTime: Bool { !isOn }

    /// `seconds` as a wait: four times as long under a sanitizer.
    public static func scaled(_ seconds: TimeInterval) -> TimeInterval { isOn ? seconds * 4 : seconds }
}

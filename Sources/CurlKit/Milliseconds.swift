/// Seconds as the caller gives them (any `Double`, also NaN or infinite) → the bounded
/// milliseconds libcurl and our timers take. 0 would mean "libcurl's default" (300 s) for
/// CONNECTTIMEOUT, so the floor is 1 ms; the ceiling is a day.
enum Milliseconds {
    static let floor = 1
    static let ceiling = 86_400_000

    static func of(_ seconds: Double) -> Int {
        guard seconds.isFinite else { return seconds > 0 ? ceiling : floor }
        let milliseconds = (seconds * 1000).rounded()
        if milliseconds <= Double(floor) { return floor }
        if milliseconds >= Double(ceiling) { return ceiling }
        return Int(milliseconds)
    }

    static func duration(_ seconds: Double) -> Duration { .milliseconds(of(seconds)) }

    /// The seconds actually used, for messages.
    static func seconds(_ seconds: Double) -> Double { Double(of(seconds)) / 1000 }
}

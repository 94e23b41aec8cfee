import Foundation

/// A TS file of timed ID3 packets (`timed_id3_ts.py`) for `HLSTestStation.startEncoder(timedID3:)`:
/// a tag every `every` seconds holding the title current then, and one at each change.
public enum TimedID3Stream {
    /// `titles`: (second it starts, artist, title), the first at 0.
    /// `bad`: (second, kind) malformed tags sent instead of a good one (`packed_id3.py`'s kinds).
    public static func write(to path: String, every: Double = 1, until: Double = 120,
                             titles: [(seconds: Double, artist: String, title: String)],
                             bad: [(seconds: Double, kind: String)] = []) throws {
        var arguments = [try PythonScript.path("timed_id3_ts"), path, "--every", "\(every)", "--until", "\(until)"]
        for title in titles { arguments += ["--title", "\(title.seconds)", title.artist, title.title] }
        for tag in bad { arguments += ["--bad", "\(tag.seconds)", tag.kind] }
        try Fixtures.run(PythonScript.interpreter, arguments)
    }
}

import PlayerCore

/// mpd's argument parsers (`src/protocol/ArgParser.cxx`), with their messages: each failure is
/// `ACK [2@…] {cmd} <what>: <the argument>`.
enum ArgumentParser {
    /// `ParseCommandArgUnsigned`: 0 through `maximum` (mpd's default, `UINT_MAX`).
    static func unsigned(_ text: String, maximum: UInt64 = UInt64(UInt32.max)) throws(MPDError) -> Int {
        let bytes = Array(text.utf8)
        let scan = CNumberScanner.unsignedLong(bytes)
        guard scan.end > 0, scan.end == bytes.count else { throw .argument("Integer expected", text) }
        guard scan.value <= maximum else { throw .argument("Number too large", text) }
        return Int(scan.value)
    }

    /// `ParseCommandArgU32`: any unsigned long, cut to 32 bits as mpd's `uint32_t` return cuts it
    /// (`plchanges -1` asks for changes since version 4294967295).
    static func uint32(_ text: String) throws(MPDError) -> UInt32 {
        let bytes = Array(text.utf8)
        let scan = CNumberScanner.unsignedLong(bytes)
        guard scan.end > 0, scan.end == bytes.count else { throw .argument("Integer expected", text) }
        return UInt32(truncatingIfNeeded: scan.value)
    }

    /// `ParseCommandArgInt`: `minimum` through `maximum` (default: a 32-bit int).
    static func int(_ text: String, minimum: Int64 = Int64(Int32.min), maximum: Int64 = Int64(Int32.max)) throws(MPDError) -> Int {
        let bytes = Array(text.utf8)
        let scan = CNumberScanner.long(bytes)
        guard scan.end > 0, scan.end == bytes.count else { throw .argument("Integer expected", text) }
        guard (minimum...maximum).contains(scan.value) else { throw .argument("Number too large", text) }
        return Int(scan.value)
    }

    /// `ParseCommandArgBool`: 0 or 1, as `strtol` reads them (`" +01"` is true).
    static func bool(_ text: String) throws(MPDError) -> Bool {
        let bytes = Array(text.utf8)
        let scan = CNumberScanner.long(bytes)
        guard scan.end > 0, scan.end == bytes.count, scan.value == 0 || scan.value == 1 else {
            throw .argument("Boolean (0/1) expected", text)
        }
        return scan.value == 1
    }

    /// `ParseCommandArgRange`: `N` (one song), `START:END` (END excluded), `START:` (to the end)
    /// and, for older clients, `-1` (everything).
    static func range(_ text: String) throws(MPDError) -> SongRange {
        let bytes = Array(text.utf8)
        let start = CNumberScanner.long(bytes)
        let colon = UInt8(ascii: ":")
        let afterStart: UInt8? = start.end < bytes.count ? bytes[start.end] : nil
        guard start.end > 0, afterStart == nil || afterStart == colon else {
            throw .argument("Integer or range expected", text)
        }
        if start.value == -1, afterStart == nil { return .all }
        guard start.value >= 0 else { throw .argument("Number is negative", text) }
        guard start.value <= Int64(Int32.max) else { throw .argument("Number too large", text) }
        guard afterStart == colon else { return SongRange(start: Int(start.value), end: Int(start.value) + 1) }

        let end = CNumberScanner.long(bytes, from: start.end + 1)
        if end.end == start.end + 1 {
            // No digits after the colon: open-ended only if nothing else follows either.
            guard start.end + 1 == bytes.count else { throw .argument("Integer or range expected", text) }
            return SongRange(start: Int(start.value), end: nil)
        }
        guard end.end == bytes.count else { throw .argument("Integer or range expected", text) }
        guard end.value >= 0 else { throw .argument("Number is negative", text) }
        guard end.value <= Int64(Int32.max) else { throw .argument("Number too large", text) }
        guard start.value <= end.value else { throw .argument("Malformed range", text) }
        return SongRange(start: Int(start.value), end: Int(end.value))
    }

    /// `ParseCommandArgFloat` (C's `strtof`). NaN is refused with mpd's own message: mpd takes it
    /// and converts it to a time, which is undefined behaviour in C.
    static func float(_ text: String) throws(MPDError) -> Float {
        let bytes = Array(text.utf8)
        let scan = CNumberScanner.float(bytes)
        guard scan.end > 0, scan.end == bytes.count, !scan.value.isNaN else { throw .argument("Float expected", text) }
        return scan.value
    }

    /// `ParseCommandArgSongTime`: seconds, not negative, as microseconds. mpd keeps whole
    /// milliseconds (`s * 1000` in float arithmetic, truncated), so does this; infinity and
    /// values past the range saturate.
    static func songTime(_ text: String) throws(MPDError) -> Microseconds {
        let seconds = try float(text)
        guard seconds >= 0 else { throw .argument("Negative value not allowed", text) }
        return microseconds(ofSeconds: seconds)
    }

    /// `ParseCommandArgSignedSongTime`: seconds, either sign, as microseconds.
    static func signedSongTime(_ text: String) throws(MPDError) -> Microseconds {
        microseconds(ofSeconds: try float(text))
    }

    /// mpd's `SongTime::FromS(float)`: `s * 1000` in float, truncated to whole milliseconds.
    private static func microseconds(ofSeconds seconds: Float) -> Microseconds {
        let milliseconds = (seconds * 1000).rounded(.towardZero)
        let limit = Float(Int64.max / 1000 / 2)
        if milliseconds >= limit { return Int64(limit) * 1000 }
        if milliseconds <= -limit { return -Int64(limit) * 1000 }
        return Int64(milliseconds) * 1000
    }
}

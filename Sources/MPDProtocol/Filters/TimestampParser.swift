/// The time of `modified-since`: ISO 8601 as mpd 0.23 reads it (`ParseISO8601`, built on glibc's
/// `strptime`), else whole seconds since 1970 (`strtoull`), with mpd's messages.
///
/// Accepted, as mpd accepts them: `2020-01` (the month's first day), `2020-01-15`, `20200115`,
/// each optionally with `T10`, `T10:30`, `T10:30:15`, `T1030`, `T103015`, then `Z`, `+HH`,
/// `+HHMM` or `+HH:MM` (hours at most 13). strptime's leniencies are kept: one-digit fields,
/// white space before a number, days past the month's end rolling over (`2020-02-31` is
/// March 2nd).
enum TimestampParser {
    /// Seconds since 1970-01-01T00:00:00Z.
    static func parse(_ text: String) throws(MPDError) -> Int64 {
        let bytes = Array(text.utf8)
        do {
            return try parseISO8601(bytes)
        } catch {
            // mpd's fallback: an integral UNIX time stamp, as strtoull reads it and time_t keeps
            // it ("-5" is 5 seconds before 1970, via unsigned wrap-around).
            let scan = CNumberScanner.unsignedLong(bytes)
            if scan.end > 0, scan.end == bytes.count { return Int64(bitPattern: scan.value) }
            throw MPDError(.argument, error.message)
        }
    }

    private struct Failure: Error {
        let message: String
    }

    private static func parseISO8601(_ bytes: [UInt8]) throws(Failure) -> Int64 {
        var reader = FieldReader(bytes)
        // "%Y-%m" on its own is a whole month.
        if let year = reader.number(0...9999, digits: 4), reader.expect("-"),
           let month = reader.number(1...12, digits: 2), reader.isAtEnd {
            return secondsSince1970(year: year, month: month, day: 1)
        }
        reader = FieldReader(bytes)
        var date: (year: Int, month: Int, day: Int)?
        if let year = reader.number(0...9999, digits: 4), reader.expect("-"),
           let month = reader.number(1...12, digits: 2), reader.expect("-"),
           let day = reader.number(1...31, digits: 2) {
            date = (year, month, day)
        } else {
            reader = FieldReader(bytes)
            if let year = reader.number(0...9999, digits: 4), let month = reader.number(1...12, digits: 2),
               let day = reader.number(1...31, digits: 2) {
                date = (year, month, day)
            }
        }
        guard let date else { throw Failure(message: "Failed to parse date") }

        var seconds = secondsSince1970(year: date.year, month: date.month, day: date.day)
        if reader.expect("T") {
            guard let timeOfDay = reader.timeOfDay() else { throw Failure(message: "Failed to parse time of day") }
            seconds += timeOfDay
        }
        if reader.expect("Z") {
            // UTC.
        } else if let sign = reader.peek, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
            reader.skip()
            let offset = try reader.timeZoneOffset()
            seconds -= sign == UInt8(ascii: "-") ? -offset : offset
        }
        guard reader.isAtEnd else { throw Failure(message: "Garbage at end of time stamp") }
        return seconds
    }

    /// `timegm` of a date at midnight; days past the month's end carry into the next.
    static func secondsSince1970(year: Int, month: Int, day: Int) -> Int64 {
        // Days from civil (Howard Hinnant's algorithm), proleptic Gregorian calendar.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let m = Int64(month)
        let dayOfYear = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468 + Int64(day - 1)
        return days * 86_400
    }

    /// Reads numbers as glibc's `strptime` does (`get_number`): white space first, then up to
    /// `digits` digits, stopping early when another digit would pass the maximum.
    private struct FieldReader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
        }

        var isAtEnd: Bool { position >= bytes.count }
        var peek: UInt8? { position < bytes.count ? bytes[position] : nil }
        mutating func skip() { position += 1 }

        mutating func expect(_ character: Unicode.Scalar) -> Bool {
            guard peek == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func number(_ range: ClosedRange<Int>, digits: Int) -> Int? {
            var index = position
            while index < bytes.count, CNumberScanner.isSpace(bytes[index]) { index += 1 }
            guard index < bytes.count, CNumberScanner.isDigit(bytes[index]) else { return nil }
            var value = 0
            var remaining = digits
            repeat {
                value = value * 10 + Int(bytes[index] - 0x30)
                index += 1
                remaining -= 1
            } while remaining > 0 && value * 10 <= range.upperBound && index < bytes.count && CNumberScanner.isDigit(bytes[index])
            guard range.contains(value) else { return nil }
            position = index
            return value
        }

        /// mpd's `ParseTimeOfDay`: `HH`, `HH:MM`, `HH:MM:SS`, `HHMM`, `HHMMSS`, in seconds.
        mutating func timeOfDay() -> Int64? {
            guard let hours = number(0...23, digits: 2) else { return nil }
            var seconds = Int64(hours) * 3600
            if expect(":") {
                guard let minutes = number(0...59, digits: 2) else { return nil }
                seconds += Int64(minutes) * 60
                guard expect(":") else { return seconds }
                guard let secs = number(0...61, digits: 2) else { return nil }
                return seconds + Int64(secs)
            }
            guard let minutes = number(0...59, digits: 2) else { return seconds }
            seconds += Int64(minutes) * 60
            guard let secs = number(0...61, digits: 2) else { return seconds }
            return seconds + Int64(secs)
        }

        /// mpd's `ParseTimeZoneOffset` after the sign, in seconds (positive).
        mutating func timeZoneOffset() throws(Failure) -> Int64 {
            let scan = CNumberScanner.unsignedLong(bytes, from: position)
            let consumed = scan.end - position
            var hours: UInt32
            var minutes: UInt32
            if scan.end > position, consumed == 4 {
                hours = UInt32(truncatingIfNeeded: scan.value / 100)
                minutes = UInt32(truncatingIfNeeded: scan.value % 100)
                position = scan.end
            } else if scan.end > position, consumed == 2 {
                hours = UInt32(truncatingIfNeeded: scan.value)
                minutes = 0
                position = scan.end
                if expect(":") {
                    let minuteScan = CNumberScanner.unsignedLong(bytes, from: position)
                    guard minuteScan.end == position + 2 else { throw Failure(message: "Failed to parse time zone offset") }
                    minutes = UInt32(truncatingIfNeeded: minuteScan.value)
                    position = minuteScan.end
                }
            } else {
                throw Failure(message: "Failed to parse time zone offset")
            }
            guard hours <= 13 else { throw Failure(message: "Time offset hours out of range") }
            guard minutes < 60 else { throw Failure(message: "Time offset minutes out of range") }
            return Int64(hours) * 3600 + Int64(minutes) * 60
        }
    }
}

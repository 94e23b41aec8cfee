/// Seconds since 1970 as mpd prints them (`Last-Modified: 2026-12-07T10:59:32Z`: strftime's
/// `%FT%TZ` of the UTC time), or nil where mpd prints no line: before 1970 (mpd treats a
/// negative time as unknown) or past the years `gmtime` can hold.
public enum UTCTimestamp {
    public static func iso8601(_ seconds: Int64) -> String? {
        guard seconds >= 0 else { return nil }
        let days = seconds / 86_400
        let secondsOfDay = seconds % 86_400
        // Civil from days (Howard Hinnant's algorithm), proleptic Gregorian calendar.
        let z = days + 719_468
        let era = z / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        // gmtime fails when the year does not fit its int (tm_year counts from 1900).
        guard year - 1900 <= Int64(Int32.max) else { return nil }
        // Written digit by digit: an `lsinfo` of a folder of 3,000 songs writes 3,000 of these,
        // and string interpolation of padded numbers was a tenth of its time.
        var text = [UInt8]()
        text.reserveCapacity(20)
        digits(year, 4, into: &text)
        text.append(UInt8(ascii: "-"))
        digits(month, 2, into: &text)
        text.append(UInt8(ascii: "-"))
        digits(day, 2, into: &text)
        text.append(UInt8(ascii: "T"))
        digits(secondsOfDay / 3600, 2, into: &text)
        text.append(UInt8(ascii: ":"))
        digits(secondsOfDay / 60 % 60, 2, into: &text)
        text.append(UInt8(ascii: ":"))
        digits(secondsOfDay % 60, 2, into: &text)
        text.append(UInt8(ascii: "Z"))
        return String(decoding: text, as: UTF8.self)
    }

    /// `value`'s decimal digits, at least `width` of them (zeros in front).
    private static func digits(_ value: Int64, _ width: Int, into text: inout [UInt8]) {
        var reversed: [UInt8] = []
        var rest = value
        repeat {
            reversed.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        while reversed.count < width { reversed.append(UInt8(ascii: "0")) }
        text.append(contentsOf: reversed.reversed())
    }
}

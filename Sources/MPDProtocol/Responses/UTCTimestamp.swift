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
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T"
            + "\(padded(secondsOfDay / 3600, 2)):\(padded(secondsOfDay / 60 % 60, 2)):\(padded(secondsOfDay % 60, 2))Z"
    }

    private static func padded(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

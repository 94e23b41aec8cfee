import Testing
@testable import MPDProtocol

/// `modified-since` times as mpd 0.23 reads them (every accepted form here was accepted by a
/// real mpd; the refused ones are in FilterErrorTests).
@Suite struct TimestampTests {
    static let cases: [(String, Int64)] = [
        // A real mpd matched songs modified at 1796641582 with each of these, not with a second later.
        ("2026-12-07T11:06:22Z", 1_796_641_582),
        ("2026-12-07T12:06:22+01", 1_796_641_582),
        ("2026-12-06T22:06:22-13", 1_796_641_582),
        ("2026-12-07T11:06", 1_796_641_560),
        ("2020-01-01", 1_577_836_800),
        ("2020-01", 1_577_836_800),
        ("20200101", 1_577_836_800),
        ("2020-1-1", 1_577_836_800),
        ("2020-01-01T10", 1_577_872_800),
        ("2020-01-01T10:30", 1_577_874_600),
        ("2020-01-01T1030", 1_577_874_600),
        ("2020-01-01T103015", 1_577_874_615),
        ("2020-01-01T10:30:15Z", 1_577_874_615),
        ("2020-01-01T10:30:00+0100", 1_577_871_000),
        ("2020-01-01T10:30:00+01", 1_577_871_000),
        ("2020-01-01T10:30:00-13:59", 1_577_874_600 + 13 * 3600 + 59 * 60),
        ("2020-02-31", 1_583_107_200),  // strptime takes day 31; timegm rolls it to March 2nd
        ("2020-01-01T23:59:60", 1_577_923_200),
        ("1600000000", 1_600_000_000),
        ("2020", 2020),  // no month: not a date, so seconds
        (" 5", 5),
        ("-5", -5),  // strtoull wraps, time_t wraps back
        ("99999999999999999999", -1),
        ("1970-01-01", 0),
        ("0000-01-01", -62_167_219_200),
    ]

    @Test(arguments: cases)
    func readsAsMPD(_ text: String, _ seconds: Int64) throws {
        #expect(try TimestampParser.parse(text) == seconds)
    }

    @Test func strptimeStopsBeforeANumberPastItsMaximum() {
        // %S reads "8" of "82" (80 > 61), %d refuses 37: mpd's answers.
        #expect(throws: MPDError(.argument, "Garbage at end of time stamp")) { try TimestampParser.parse("2026-12-07T11:05:82") }
        #expect(throws: MPDError(.argument, "Failed to parse date")) { try TimestampParser.parse("2026-11-37T11:06:22") }
    }

    @Test func lastModifiedIsWrittenInUTC() {
        #expect(UTCTimestamp.iso8601(0) == "1970-01-01T00:00:00Z")
        #expect(UTCTimestamp.iso8601(1_796_641_583) == "2026-12-07T11:06:23Z")
        #expect(UTCTimestamp.iso8601(951_782_400) == "2000-02-29T00:00:00Z")
        #expect(UTCTimestamp.iso8601(253_402_300_800) == "10000-01-01T00:00:00Z")
        #expect(UTCTimestamp.iso8601(-1) == nil)
        #expect(UTCTimestamp.iso8601(.max) == nil)
    }
}

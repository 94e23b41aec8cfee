import SnapcastControl
import Testing

/// Lines from stdin, with a bound: an endless line is skipped, reported once, and holds no
/// more than the limit in memory.
@Suite struct LineReaderTests {
    @Test func linesInPiecesAndCRLF() {
        var reader = LineReader(limit: 100)
        #expect(reader.feed(Array("{\"a\":".utf8)) == [])
        #expect(reader.feed(Array("1}\r\n{}\n\n".utf8)) == [.line(Array("{\"a\":1}".utf8)), .line(Array("{}".utf8)), .line([])])
    }

    @Test func anOverlongLineIsReportedOnceAndSkippedToItsEnd() {
        var reader = LineReader(limit: 10)
        var items: [LineReader.Item] = []
        for _ in 0..<1_000 {
            items += reader.feed([UInt8](repeating: UInt8(ascii: "x"), count: 1_000))
            #expect(reader.pendingCount <= 10)
        }
        #expect(items == [.tooLong])
        #expect(reader.feed(Array("tail\nok\n".utf8)) == [.line(Array("ok".utf8))])
    }
}

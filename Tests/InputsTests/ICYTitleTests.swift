import Inputs
import PlayerCore
import Testing

@Suite struct ICYTitleTests {
    private func block(_ bytes: [UInt8]) -> [UInt8] {
        bytes + [UInt8](repeating: 0, count: (16 - bytes.count % 16) % 16)
    }

    @Test func splitsArtistAndTitle() throws {
        let title = try #require(ICYTitle.parse(block(Array("StreamTitle='Daft Punk - One More Time';StreamUrl='';".utf8))))
        #expect(title.artist == "Daft Punk")
        #expect(title.title == "One More Time")
        #expect(title.text == "Daft Punk - One More Time")
    }

    @Test func latin1TitlesArriveAsTheirLetters() throws {
        let latin1: [UInt8] = Array("StreamTitle='Mot".utf8) + [0xF6] + Array("rhead - Ace of Spades';".utf8)
        let title = try #require(ICYTitle.parse(block(latin1)))
        #expect(title.artist == "Motörhead")
        let cp1252: [UInt8] = Array("StreamTitle='It".utf8) + [0x92] + Array("s';".utf8)
        #expect(ICYTitle.parse(block(cp1252))?.title == "It’s")
    }

    @Test func utf8StaysUTF8() {
        #expect(ICYTitle.parse(block(Array("StreamTitle='Björk - Jóga';".utf8)))?.artist == "Björk")
    }

    @Test func aQuoteInsideTheTitleDoesNotEndIt() {
        #expect(ICYTitle.parse(block(Array("StreamTitle='Guns N' Roses - Patience';".utf8)))?.artist == "Guns N' Roses")
    }

    @Test func anUnclosedQuoteTakesTheRest() {
        #expect(ICYTitle.parse(block(Array("StreamTitle='Cut short".utf8)))?.title == "Cut short")
    }

    @Test func noTitleOrAnEmptyOneIsNone() {
        #expect(ICYTitle.parse(block(Array("StreamTitle='';".utf8))) == nil)
        #expect(ICYTitle.parse(block(Array("StreamUrl='http://x';".utf8))) == nil)
        #expect(ICYTitle.parse([]) == nil)
        #expect(ICYTitle.parse([UInt8](repeating: 0xFF, count: 4080)) == nil)
    }

    @Test func controlCharactersAreDroppedAndLengthIsCapped() throws {
        let title = try #require(ICYTitle.parse(block(Array("StreamTitle='A\u{1B}[31m\nB';".utf8))))
        #expect(title.text == "A[31mB")
        let long = try #require(ICYTitle.parse(Array("StreamTitle='".utf8) + [UInt8](repeating: 0x61, count: 3000) + Array("';".utf8)))
        #expect(long.text.count == ICYTitle.maximumLength + 1)
    }

    @Test func titleWithoutSeparatorIsAllTitle() {
        let title = ICYTitle.parse(block(Array("StreamTitle='Station jingle';".utf8)))
        #expect(title?.artist == nil)
        #expect(title?.title == "Station jingle")
    }
}

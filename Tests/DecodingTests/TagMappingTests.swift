import Testing
@testable import Decoding
import Mpg123Kit

@Suite struct TagMappingTests {
    @Test(arguments: [
        ("Rock", ["Rock"]),
        ("(17)", ["Rock"]),
        ("17", ["Rock"]),
        ("(17)Hard Stuff", ["Hard Stuff"]),
        ("(4)(17)", ["Disco", "Rock"]),
        ("(RX)", ["Remix"]),
        ("((parenthesised)", ["(parenthesised)"]),
        ("(999)", []),
        (" Jazz ", ["Jazz"]),
    ])
    func genreParsing(_ raw: String, _ expected: [String]) {
        #expect(TagMapping.parseGenre(raw) == expected)
    }

    @Test func numberParsing() {
        #expect(TagMapping.leadingNumber("3/12") == 3)
        #expect(TagMapping.leadingNumber("07") == 7)
        #expect(TagMapping.leadingNumber(" 2 ") == 2)
        #expect(TagMapping.leadingNumber("") == nil)
        #expect(TagMapping.leadingNumber("A") == nil)
        #expect(TagMapping.leadingNumber("0") == nil)
    }

    @Test func v2WinsOverV1() {
        let tags = ID3Tags(
            textFrames: [ID3TextFrame(id: "TIT2", values: ["New"])],
            version1: ID3v1Tag(title: "Old", artist: "Old Artist", album: "", year: "1990", comment: "",
                               trackNumber: 5, genreIndex: 8))
        let track = TagMapping.track(path: "/x.mp3", tags: tags)
        #expect(track.title == "New")
        #expect(track.artists == ["Old Artist"])
        #expect(track.album == nil)
        #expect(track.trackNumber == 5)
        #expect(track.genres == ["Jazz"])
        #expect(track.date == "1990")
    }

    @Test func genreTable() {
        #expect(ID3Genre.name(forIndex: 0) == "Blues")
        #expect(ID3Genre.name(forIndex: 17) == "Rock")
        #expect(ID3Genre.name(forIndex: 147) == "SynthPop")
        #expect(ID3Genre.name(forIndex: 255) == nil)
    }
}

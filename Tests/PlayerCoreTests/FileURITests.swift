import Testing
import PlayerCore

@Suite struct FileURITests {
    @Test func encodesEverythingButUnreservedAndSlash() {
        #expect(FileURI.uri(forPath: "/music/a-b_c.~d/x.mp3") == "file:///music/a-b_c.~d/x.mp3")
        #expect(FileURI.uri(forPath: "/a b/ü%#?&+.mp3") == "file:///a%20b/%C3%BC%25%23%3F%26%2B.mp3")
    }

    @Test func decodes() {
        #expect(FileURI.path(fromFileURI: "file:///a%20b/%C3%BC.mp3") == "/a b/ü.mp3")
        #expect(FileURI.path(fromFileURI: "FILE://localhost/x.mp3") == "/x.mp3")
        #expect(FileURI.path(fromFileURI: "file:/x.mp3") == "/x.mp3")
        #expect(FileURI.path(fromFileURI: "file:///x.mp3#fragment") == "/x.mp3")
        #expect(FileURI.path(fromFileURI: "file:///ü raw.mp3") == "/ü raw.mp3")
    }

    @Test(arguments: ["http://host/x.mp3", "file://otherhost/x.mp3", "file:///bad%2", "file:///bad%zz",
                      "file:///nul%00.mp3", "file:///%FF%FE.mp3", "file:relative.mp3", "/plain/path", ""])
    func rejects(_ uri: String) {
        #expect(FileURI.path(fromFileURI: uri) == nil)
    }

    @Test func roundTrip() {
        for path in ["/", "/a", "/Música/Ä & Ö/01 — intro (live) [2009].mp3", "/tab\there"] {
            #expect(FileURI.path(fromFileURI: FileURI.uri(forPath: path)) == path)
        }
    }
}

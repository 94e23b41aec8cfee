import Foundation
import Testing
import TestSupport
@testable import WebFrontEnd

/// The page's token: made once, kept to its owner, the same ever after; a damaged file is made again.
@Suite struct WebTokenTests {
    @Test func madeOnceKeptPrivateAndTheSameAfterwards() throws {
        let folder = try Fixtures.makeDirectory()
        defer { Fixtures.remove(folder) }
        let file = folder + "/state/aubade/web-token"
        let token = try WebToken.loadOrCreate(file).get()
        #expect(token.count == 26)
        #expect(token.allSatisfy { $0.isLowercase || ("2"..."7").contains($0) })
        let attributes = try FileManager.default.attributesOfItem(atPath: file)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try WebToken.loadOrCreate(file).get() == token)
        // Another token: 128 bits do not repeat.
        let other = try WebToken.loadOrCreate(folder + "/other").get()
        #expect(other != token)
    }

    @Test func aFileWithoutATokenIsMadeAgain() throws {
        let folder = try Fixtures.makeDirectory()
        defer { Fixtures.remove(folder) }
        let file = folder + "/web-token"
        try Fixtures.write(Array("<script>\n".utf8), to: file)
        let token = try WebToken.loadOrCreate(file).get()
        #expect(token.count == 26)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == token + "\n")
    }

    @Test func base32OfKnownBytes() {
        #expect(WebToken.base32([0xff]) == "74")
        #expect(WebToken.base32([0, 0, 0, 0, 0]) == "aaaaaaaa")
    }
}

import Foundation
import XCTest
@testable import TestSupport

/// File names are bytes, not always UTF-8 (issue 10, finding 4): an old collection named in
/// Latin-1 (`caf\xE9.mp3`) plays from a folder on the command line, through AddTrack and after
/// a restart, and `xesam:url` carries its exact bytes (`caf%E9.mp3`). The title shows the name
/// read as Latin-1/CP1252 ("café"), which is what such names were written in.
final class NonUTF8PathTests: AubadeTestCase {
    /// "café.mp3" in Latin-1: 0xE9 alone is not UTF-8.
    private static let latin1Name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".mp3".utf8)

    /// A folder of this test holding one untagged MP3 under the Latin-1 name (a hard link to
    /// the untagged fixture, so the title comes from the file name).
    private func latin1Folder() throws -> URL {
        let folder = try makeDirectory("latin1")
        try Self.link(fixtures.untagged.path, toBytes: Array(folder.path.utf8) + [UInt8(ascii: "/")] + Self.latin1Name)
        return folder
    }

    private static func link(_ source: String, toBytes target: [UInt8]) throws {
        let result = (target + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { Glibc.link(source, $0.baseAddress!) }
        }
        guard result == 0 else { throw DaemonError("link to a Latin-1 name failed: errno \(errno)") }
    }

    /// The `file://` URI of `folder`/caf\xE9.mp3, percent-encoding every byte but the
    /// unreserved ones and "/".
    private func expectedURI(in folder: URL) -> String {
        let bytes = Array(folder.path.utf8) + [UInt8(ascii: "/")] + Self.latin1Name
        var uri = "file://"
        for byte in bytes {
            let scalar = Unicode.Scalar(byte)
            if byte < 0x80, scalar.properties.isAlphabetic || ("0"..."9").contains(Character(scalar)) || "-._~/".unicodeScalars.contains(scalar) {
                uri.unicodeScalars.append(scalar)
            } else {
                uri += String(format: "%%%02X", byte)
            }
        }
        return uri
    }

    func testLatin1FolderPlaysFromTheCommandLine() throws {
        let folder = try latin1Folder()
        let daemon = try startDaemon([folder.path])
        try waitForStatus("Playing")
        let metadata = try metadata()
        XCTAssertEqual(metadata["xesam:url"]?.string, expectedURI(in: folder))
        XCTAssertTrue(expectedURI(in: folder).hasSuffix("/caf%E9.mp3"))
        XCTAssertEqual(metadata["xesam:title"]?.string, "café", "a Latin-1 name is shown as Latin-1")
        XCTAssertNotEqual(metadata["mpris:length"]?.int64 ?? 0, 0, "the tags and length were not read")
        XCTAssertTrue(daemon.isRunning)
    }

    func testLatin1FileThroughAddTrackPlays() throws {
        let folder = try latin1Folder()
        try startPlaying([fixtures.long])
        let uri = expectedURI(in: folder)
        let reply = try Bus.addTrack(uri, after: try tracks()[0])
        XCTAssertTrue(reply.succeeded, "AddTrack \(uri): \(reply)")
        let ids = try tracks()
        XCTAssertEqual(ids.count, 2)
        guard ids.count == 2 else { return }
        XCTAssertEqual(try Bus.tracksMetadata([ids[1]]).first?["xesam:url"]?.string, uri)
        try playerctl("next")
        try waitForTitle("café")
        try waitForStatus("Playing")
        XCTAssertEqual(try metadata()["xesam:url"]?.string, uri)
        try eventually("the position to move in the Latin-1 file") { try position() > 300_000 }
    }

    func testLatin1FileThroughOpenUriPlays() throws {
        let folder = try latin1Folder()
        try startPlaying([fixtures.long])
        let reply = try Bus.player("OpenUri", ["string:\(expectedURI(in: folder))"])
        XCTAssertTrue(reply.succeeded, "OpenUri: \(reply)")
        try waitForTitle("café")
        XCTAssertEqual(try metadata()["xesam:url"]?.string, expectedURI(in: folder))
    }

    /// `aubade add caf\xE9.mp3` (relative, as a shell passes it: raw bytes in argv, which
    /// `CommandLine.arguments` would have turned into U+FFFD).
    func testLatin1FileThroughTheAddVerb() throws {
        let folder = try latin1Folder()
        try startPlaying([fixtures.long])
        let binary = try Daemon.binaryPath()
        let result = try Shell.run("/bin/sh", ["-c", "exec \"$0\" add \"$(printf 'caf\\351.mp3')\"", binary],
                                   currentDirectory: folder)
        XCTAssertTrue(result.succeeded, "aubade add: \(result)")
        let ids = try tracks()
        XCTAssertEqual(ids.count, 2)
        guard ids.count == 2 else { return }
        XCTAssertEqual(try Bus.tracksMetadata([ids[1]]).first?["xesam:url"]?.string, expectedURI(in: folder))
        XCTAssertEqual(try queueTitles(), ["Long One", "café"])
    }

    func testLatin1FileSurvivesARestart() throws {
        let folder = try latin1Folder()
        let home = try makeHome()
        let first = try startDaemon([fixtures.long.path, folder.path], home: home)
        try waitForStatus("Playing")
        try playerctl("next")
        try waitForTitle("café")
        try terminate(first)
        try startDaemon([], home: home)
        try waitForTitle("café")
        XCTAssertEqual(try queueTitles(), ["Long One", "café"])
        XCTAssertEqual(try metadata()["xesam:url"]?.string, expectedURI(in: folder))
        try playerctl("play")
        try waitForStatus("Playing")
    }
}

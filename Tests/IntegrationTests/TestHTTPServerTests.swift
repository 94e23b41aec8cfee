import Foundation
import XCTest
@testable import TestSupport

/// Each route of the test web server (Support/TestHTTPServer.swift), checked with curl(1) or a
/// raw socket where curl would hide what was sent (ICY, stalls, cut connections, huge headers).
/// No sound server or bus needed. curl or openssl missing: skipped, but failed under CI.
final class TestHTTPServerTests: XCTestCase {
    private var folder: URL!
    private var server: TestHTTPServer!
    /// 100,000 random bytes served as data.bin: any byte slice is recognisable.
    private var data = Data()

    override func setUpWithError() throws {
        try super.setUpWithError()
        for tool in ["curl", "openssl"] where (try? Shell.which(tool)) == nil {
            let message = "\(tool) not installed (run scripts/install-deps)"
            if !(ProcessInfo.processInfo.environment["CI"] ?? "").isEmpty { XCTFail(message) }
            throw XCTSkip(message)
        }
        folder = TestRunDirectory.url.appendingPathComponent("http-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        data = Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        try data.write(to: folder.appendingPathComponent("data.bin"))
        try "#EXTM3U\nhttp://127.0.0.1/one.mp3\n".write(to: folder.appendingPathComponent("list.m3u"),
                                                        atomically: true, encoding: .utf8)
        server = try TestHTTPServer(files: folder)
    }

    override func tearDown() {
        server?.stop()
        server = nil
        if let folder { try? FileManager.default.removeItem(at: folder) }
        super.tearDown()
    }

    /// curl ARGUMENTS URL with the body in a file; (status, headers, body, curl's result).
    /// `writeOut` (curl -w) starts with the status code.
    private func curl(_ url: String, _ arguments: [String] = [],
                      writeOut: String = "%{http_code}") throws -> (status: Int, headers: String, body: Data, result: CommandResult) {
        let body = folder.appendingPathComponent("body-\(UUID().uuidString.prefix(8))")
        let headers = folder.appendingPathComponent("headers-\(UUID().uuidString.prefix(8))")
        defer {
            try? FileManager.default.removeItem(at: body)
            try? FileManager.default.removeItem(at: headers)
        }
        let result = try Shell.run("curl", ["-sS", "--max-time", "10", "-o", body.path, "-D", headers.path,
                                            "-w", writeOut] + arguments + [url], timeout: 15)
        let status = result.trimmedOutput.split(separator: " ").first.flatMap { Int($0) } ?? -1
        return (status, (try? String(contentsOf: headers, encoding: .utf8)) ?? "",
                (try? Data(contentsOf: body)) ?? Data(), result)
    }

    func testFileServesRangesAndNorangeIgnoresThem() throws {
        let whole = try curl(server.url("/file/data.bin"))
        XCTAssertEqual(whole.status, 200)
        XCTAssertEqual(whole.body, data)
        XCTAssertTrue(whole.headers.contains("Accept-Ranges: bytes"), whole.headers)

        let part = try curl(server.url("/file/data.bin"), ["-r", "1000-1999"])
        XCTAssertEqual(part.status, 206)
        XCTAssertEqual(part.body, data[1000..<2000])
        XCTAssertTrue(part.headers.contains("Content-Range: bytes 1000-1999/100000"), part.headers)
        XCTAssertEqual(try curl(server.url("/file/data.bin"), ["-r", "99990-"]).body, data[99_990...])
        XCTAssertEqual(try curl(server.url("/file/data.bin"), ["-r", "-10"]).body, data[99_990...])
        XCTAssertEqual(try curl(server.url("/file/data.bin"), ["-r", "100000-"]).status, 416)

        let ignored = try curl(server.url("/norange/data.bin"), ["-r", "1000-1999"])
        XCTAssertEqual(ignored.status, 200)
        XCTAssertEqual(ignored.body, data)
        XCTAssertFalse(ignored.headers.contains("Accept-Ranges"), ignored.headers)
        XCTAssertEqual(try curl(server.url("/file/missing.bin")).status, 404)
        XCTAssertEqual(try curl(server.url("/file/..%2F..%2Fetc%2Fpasswd")).status, 404)

        XCTAssertEqual(server.requests().prefix(2), ["GET /file/data.bin", "GET /file/data.bin Range: bytes=1000-1999"])
    }

    func testRedirectChainsStatusCodesAndHTML() throws {
        let followed = try curl(server.url("/redirect/3/data.bin"), ["-L"],
                            writeOut: "%{http_code} %{num_redirects} %{url_effective}")
        XCTAssertEqual(followed.result.trimmedOutput, "200 3 \(server.url("/file/data.bin"))")
        XCTAssertEqual(followed.body, data)
        XCTAssertEqual(server.requests(), ["GET /redirect/3/data.bin", "GET /redirect/2/data.bin",
                                           "GET /redirect/1/data.bin", "GET /file/data.bin"])
        let once = try curl(server.url("/redirect/1/data.bin?code=307&to=slow"))
        XCTAssertEqual(once.status, 307)
        XCTAssertTrue(once.headers.contains("Location: \(server.url("/slow/data.bin?code=307&to=slow"))"), once.headers)

        for code in [404, 403, 500, 503] {
            let answer = try curl(server.url("/status/\(code)"))
            XCTAssertEqual(answer.status, code)
            XCTAssertTrue(String(decoding: answer.body, as: UTF8.self).contains("<html>"))
        }
        let page = try curl(server.url("/html"))
        XCTAssertEqual(page.status, 200)
        XCTAssertTrue(page.headers.contains("Content-Type: text/html"), page.headers)
        XCTAssertEqual(try curl(server.url("/nothing/here")).status, 404)
    }

    func testStallHoldsTheConnectionAndCloseCutsIt() throws {
        let stalled = try RawHTTPConnection(port: server.port, timeout: 0.5)
        try stalled.sendGet("/stall/data.bin?after=3000")
        let head = try stalled.readHead()
        XCTAssertEqual(head.value("Content-Length"), "100000")
        XCTAssertEqual(try stalled.read(exactly: 3000), data.prefix(3000))
        XCTAssertThrowsError(try stalled.read(exactly: 1)) { error in
            XCTAssertTrue("\(error)".contains("timed out"), "\(error)")
        }
        stalled.close()

        let cut = try RawHTTPConnection(port: server.port)
        try cut.sendGet("/close/data.bin?after=5000")
        XCTAssertEqual(try cut.readHead().value("Content-Length"), "100000")
        XCTAssertEqual(try cut.readToEnd(), data.prefix(5000))

        let reset = try RawHTTPConnection(port: server.port)
        try reset.sendGet("/close/data.bin?after=100&reset=1")
        _ = try reset.readHead()
        XCTAssertThrowsError(try reset.read(exactly: 200)) { error in
            XCTAssertTrue("\(error)".contains("errno \(ECONNRESET)") || "\(error)".contains("closed"), "\(error)")
        }
        // The server still answers after the client of the stall went away.
        XCTAssertEqual(try curl(server.url("/html")).status, 200)
    }

    func testPlaylistsAreRegisteredOrServedFromTheFolder() throws {
        let pls = "[playlist]\nNumberOfEntries=1\nFile1=http://127.0.0.1/radio.mp3\nVersion=2\n"
        try server.register(path: "/pls/station.pls", body: pls, contentType: "audio/x-scpls")
        let answer = try curl(server.url("/pls/station.pls"))
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(String(decoding: answer.body, as: UTF8.self), pls)
        XCTAssertTrue(answer.headers.contains("Content-Type: audio/x-scpls"), answer.headers)
        try server.register(path: "/pls/station.pls", body: Data([0x46, 0x69, 0x6C, 0x65, 0xE9]), contentType: "text/plain")
        XCTAssertEqual(try curl(server.url("/pls/station.pls")).body, Data([0x46, 0x69, 0x6C, 0x65, 0xE9]))

        let m3u = try curl(server.url("/m3u/list.m3u"))
        XCTAssertTrue(m3u.headers.contains("Content-Type: audio/x-mpegurl"), m3u.headers)
        XCTAssertTrue(String(decoding: m3u.body, as: UTF8.self).hasPrefix("#EXTM3U"))
    }

    func testICYStreamInsertsTheRegisteredBlocksOnlyWhenAsked() throws {
        let latin1 = TestHTTPServer.icyBlock(title: Data([0x4D, 0x6F, 0x74, 0xF6, 0x72, 0x68, 0x65, 0x61, 0x64]))
        let garbage = Data([255]) + Data((0..<4080).map { UInt8(truncatingIfNeeded: $0 * 7 + 1) })
        let unclosed = TestHTTPServer.icyBlock(Data("StreamTitle='Unclosed;".utf8))
        try server.registerICY(name: "data.bin", blocks: [latin1, garbage, unclosed], station: "Test Ståtion")

        let connection = try RawHTTPConnection(port: server.port)
        try connection.sendGet("/icy/data.bin?metaint=1024", headers: ["Icy-MetaData": "1"])
        let head = try connection.readHead()
        XCTAssertEqual(head.statusLine, "ICY 200 OK")
        XCTAssertEqual(head.value("icy-metaint"), "1024")
        XCTAssertEqual(head.value("content-type"), "audio/mpeg")
        var audio = Data()
        for expected in [latin1, garbage, unclosed, Data([0])] {
            audio += try connection.read(exactly: 1024)
            XCTAssertEqual(try connection.read(exactly: expected.count), expected)
        }
        XCTAssertEqual(audio, data.prefix(4096))

        // Without Icy-MetaData: no metaint, the file as it is.
        let plain = try RawHTTPConnection.get(port: server.port, "/icy/data.bin")
        XCTAssertEqual(plain.head.statusLine, "ICY 200 OK")
        XCTAssertNil(plain.head.value("icy-metaint"))
        XCTAssertEqual(plain.body, data)
        XCTAssertEqual(server.requests(), ["GET /icy/data.bin?metaint=1024 Icy-MetaData: 1", "GET /icy/data.bin"])
    }

    func testSlowIsPacedInRealTime() throws {
        let started = Date()
        let answer = try curl(server.url("/slow/data.bin?rate=200000"))
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(answer.body, data)
        // 100,000 bytes at 200,000 bytes/s: half a second.
        XCTAssertGreaterThan(seconds, 0.45)
        XCTAssertLessThan(seconds, 5)
    }

    func testHugeHeaderAndManyHeaders() throws {
        let huge = try RawHTTPConnection.get(port: server.port, "/hugeheader")
        XCTAssertEqual(huge.head.value("X-Huge")?.count, 102_400)
        let many = try RawHTTPConnection.get(port: server.port, "/manyheaders")
        XCTAssertEqual(many.head.headers.filter { $0.name.hasPrefix("X-Many-") }.count, 10_000)
        XCTAssertEqual(many.head.status, 200)
    }

    func testTLSWithTheTestCA() throws {
        let secure = try TestHTTPServer(files: folder, tls: true)
        defer { secure.stop() }
        let caFile = try XCTUnwrap(secure.caFile)
        let answer = try curl(secure.url("/file/data.bin", tls: true), ["--cacert", caFile])
        XCTAssertEqual(answer.status, 200, "\(answer.result)")
        XCTAssertEqual(answer.body, data)
        let byName = try curl(secure.url("/html", tls: true).replacingOccurrences(of: "127.0.0.1", with: "localhost"),
                              ["--cacert", caFile])
        XCTAssertEqual(byName.status, 200, "\(byName.result)")
        let untrusted = try curl(secure.url("/html", tls: true))
        XCTAssertEqual(untrusted.result.status, 60, "curl without the CA: \(untrusted.result)")  // peer certificate
        let redirected = try curl(secure.url("/redirect/1/data.bin", tls: true), ["--cacert", caFile, "-L"])
        XCTAssertEqual(redirected.body, data)
        XCTAssertEqual(try curl(secure.url("/html")).status, 200, "the plain listener")
        XCTAssertEqual(secure.requests(), ["GET /file/data.bin (TLS)", "GET /html (TLS)", "GET /redirect/1/data.bin (TLS)",
                                           "GET /file/data.bin (TLS)", "GET /html"])
    }

    func testStopLeavesNothing() throws {
        let pid = server.pid
        let directory = server.directory
        server.stop()
        XCTAssertFalse(Shell.isAlive(pid: pid))
        XCTAssertFalse(FileManager.default.fileExists(atPath: directory.path))
    }
}

import FFmpegClient
import FFmpegWire
import Foundation
import Testing
@testable import TestSupport

/// The helper's own HTTPS requests (an HLS station's playlists and segments, which FFmpeg fetches
/// itself) check the certificate: against the CA file the daemon passes, and never not at all.
/// Straight to the helper (`HelperChannel`), with no daemon whose libcurl would refuse first.
@Suite(.waitsOnRealTime) struct HelperTLSTests {
    /// A test CA and a certificate for 127.0.0.1 it signed (openssl); returns the CA's file.
    static func certificates(in folder: String) throws -> String {
        try """
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            subjectAltName=IP:127.0.0.1,DNS:localhost

            """.write(toFile: folder + "/server.ext", atomically: true, encoding: .utf8)
        let key = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try Fixtures.run("openssl", ["req", "-x509"] + key + ["-keyout", folder + "/ca.key", "-out", folder + "/ca.pem", "-days", "2",
                                                                "-subj", "/CN=Aubade Test CA", "-addext", "basicConstraints=critical,CA:TRUE",
                                                                "-addext", "keyUsage=critical,keyCertSign,cRLSign"])
        try Fixtures.run("openssl", ["req"] + key + ["-keyout", folder + "/server.key", "-out", folder + "/server.csr", "-subj", "/CN=127.0.0.1"])
        try Fixtures.run("openssl", ["x509", "-req", "-in", folder + "/server.csr", "-CA", folder + "/ca.pem", "-CAkey", folder + "/ca.key",
                                     "-set_serial", "0x5eed", "-days", "2", "-extfile", folder + "/server.ext", "-out", folder + "/server.pem"])
        return folder + "/ca.pem"
    }

    private func open(_ url: String, caFile: String?) throws -> Result<WireFormat, HelperError> {
        let channel = try HelperChannel()
        defer { channel.close() }
        return Result { () throws(HelperError) in
            try channel.send(WireURLRequest(url: url, caFile: caFile, userAgent: "aubade-tests").frame)
            guard case .format(let format) = try channel.receive(timeout: 30) else { throw HelperError.broken("not a format") }
            return format
        }
    }

    @Test func anHTTPSStationPlaysWithItsCAAndIsRefusedWithout() throws {
        let folder = try Fixtures.makeDirectory()
        let caFile = try Self.certificates(in: folder)
        let station = try HLSTestStation(directory: folder + "/live", certificate: (folder + "/server.pem", folder + "/server.key"))
        defer { station.stop() }
        try station.startEncoder()
        #expect(station.waitForSegments(3))
        let url = station.url("master.m3u8")
        guard case .success(let format) = try open(url, caFile: caFile) else {
            Issue.record("the station did not open with its CA")
            return
        }
        #expect(format.sampleRate == 44_100)
        // The system's CAs do not know the test CA: refused, never played unchecked.
        let refused = try open(url, caFile: nil)
        guard case .failure(let error) = refused else {
            Issue.record("an untrusted certificate was accepted")
            return
        }
        print("HLS over HTTPS with the system's CAs: \(error)")
        #expect(error.description.contains("cannot open the stream"))
        // Nor with another CA.
        let other = try Fixtures.makeDirectory()
        guard case .failure = try open(url, caFile: try Self.certificates(in: other)) else {
            Issue.record("a certificate of another CA was accepted")
            return
        }
    }
}

import Foundation
@testable import TestSupport

/// The python3 server of `testServerScript`, in a temp dir of its own, with (optionally) a
/// test CA and a server certificate for 127.0.0.1 and localhost made by openssl.
/// `stop()` kills it by PID and removes the temp dir.
final class TestServer: @unchecked Sendable {
    struct SetupError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    let directory: String
    let httpPort: Int
    let httpsPort: Int?
    /// Listens, never accepts: connections stand and nothing ever answers.
    let silentPort: Int
    /// The test CA's certificate (PEM), when started with TLS.
    let caFile: String?
    private let child: ChildProcess

    init(tls: Bool = false) throws {
        // TMPDIR first: make test gives each run its own and fails a run that leaves anything.
        let temporary = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(temporary)/curlkit-tests-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw SetupError("mkdtemp failed: errno \(errno)") }
        directory = String(cString: made)
        do {
            var arguments = [try PythonScript.path("curl_test_server")]
            if tls {
                let files = try TestCertificates.make(in: directory)
                arguments += [files.certificate, files.key]
                caFile = files.caCertificate
            } else {
                caFile = nil
            }
            child = try ChildProcess(PythonScript.interpreter, arguments)
            guard let line = child.firstLine(timeout: 20),
                  let ports = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let http = ports["http"] as? Int, let silent = ports["silent"] as? Int else {
                child.stop()
                throw SetupError("the test server printed no ports")
            }
            httpPort = http
            httpsPort = ports["https"] as? Int
            silentPort = silent
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    func url(_ path: String) -> String { "http://127.0.0.1:\(httpPort)\(path)" }

    func tlsURL(_ path: String, host: String = "127.0.0.1") -> String {
        "https://\(host):\(httpsPort ?? 0)\(path)"
    }

    func stop() {
        child.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }
}

/// The byte at position `index` of every test body.
func patternByte(_ index: Int) -> UInt8 { UInt8(index % 251) }

func pattern(_ range: Range<Int>) -> [UInt8] { range.map(patternByte) }

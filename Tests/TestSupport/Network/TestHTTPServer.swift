import Foundation

/// A web server on 127.0.0.1 for the stream tests: the files of a folder, playlists the test
/// registers, SHOUTcast v1 streams and every way a server can misbehave that a player must
/// survive. A threaded python3 http.server (Scripts/http_server.py), run by
/// PID; with `tls`, a second listener speaks HTTPS with a certificate for 127.0.0.1 and
/// localhost signed by a test CA made with openssl at start (`caFile`).
///
/// Routes (NAME is a file of `files`, percent-decoded; never outside the folder):
/// - `/file/NAME`: the file with Content-Length, `Accept-Ranges: bytes` and one-range `Range`
///   support (206 with Content-Range; 416 past the end; a multi-range asks for all: 200).
/// - `/norange/NAME`: the same, ignoring Range (always 200, no Accept-Ranges).
/// - `/redirect/N/NAME`: a chain of N 302s (`?code=301|307|308` for others), each Location
///   absolute, ending at `/file/NAME` (`?to=slow` ends at `/slow/NAME`; the query is passed on).
///   `/redirect/0/NAME` is `/file/NAME`.
/// - `/status/CODE`: that status (200–599) with a small HTML body. `/html`: an HTML page, 200
///   text/html (a captive portal, a station's web page where a stream was expected).
/// - `/stall/NAME?after=BYTES`: the whole file's Content-Length, the first BYTES (default 0),
///   then silence, holding the connection until the client goes.
/// - `/close/NAME?after=BYTES`: the whole file's Content-Length, then a close after BYTES
///   (default 0); `&reset=1` closes with a TCP reset instead.
/// - `/pls/NAME`, `/m3u/NAME`: the file as audio/x-scpls or audio/x-mpegurl; `register` a body
///   at such a path instead (any registered path wins over every route).
/// - `/icy/NAME`: a SHOUTcast v1 answer: `ICY 200 OK`, `icy-name`, `icy-br`, `content-type`,
///   then the file as it is; for a client that sent `Icy-MetaData: 1` also `icy-metaint`
///   (8192; `?metaint=N`) and a metadata block after every metaint bytes: block i of
///   `registerICY(NAME…)`, a zero length byte once they ran out. `?rate=BYTES_PER_S` paces
///   the audio, `?loop=1` repeats the file forever.
/// - `/slow/NAME?rate=BYTES_PER_S`: the file paced in real time (default 16000: 128 kbit/s).
/// - `/hugeheader`: one 100 KiB header line (`X-Huge`). `/manyheaders`: 10,000 header lines.
/// - Anything else: 404 with an HTML body.
///
/// `requests()` lists what clients asked, logged by the server before it answers.
final class TestHTTPServer {
    let port: Int
    /// The HTTPS port, when started with `tls`.
    let tlsPort: Int?
    /// The test CA's certificate (PEM), for the client's trust store; with `tls` only.
    let caFile: String?
    let files: URL?
    /// The temporary directory: the script, the registry, the request log, the TLS files.
    let directory: URL
    private let process: Subprocess
    private var registered = 0
    private var stopped = false

    private var registry: URL { directory.appendingPathComponent("registry", isDirectory: true) }
    private var requestLog: URL { directory.appendingPathComponent("requests.log") }

    init(files: URL? = nil, tls: Bool = false) throws {
        self.files = files
        var template = Array("\(NSTemporaryDirectory())aubade-http.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DaemonError("mkdtemp failed: errno \(errno)") }
        let directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        self.directory = directory
        do {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("registry"),
                                                    withIntermediateDirectories: true)
            caFile = tls ? try Self.makeCertificates(in: directory.appendingPathComponent("tls")) : nil
            let child = try Subprocess(PythonScript.interpreter, [try PythonScript.path("http_server"), directory.path, files?.path ?? "-"] + (tls ? ["--tls"] : []))
            // The script prints its ports once it listens.
            func announced(_ word: String) -> Int? {
                child.stdout.waitForLine(timeout: 10) { $0.hasPrefix(word + " ") }
                    .flatMap { Int($0.line.dropFirst(word.count + 1)) }
            }
            let port = announced("port")
            let tlsPort = tls ? announced("tls-port") : nil
            guard let port, !tls || tlsPort != nil else {
                child.stop(grace: 1)
                child.stderr.waitUntilClosed(timeout: 1)
                throw DaemonError("the test HTTP server did not start: \(child.stderr.text)")
            }
            process = child
            self.port = port
            self.tlsPort = tlsPort
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }

    deinit { stop() }

    var isRunning: Bool { process.isRunning }
    var pid: Int32 { process.pid }
    /// What the server wrote to stderr (clients that went away, failed TLS handshakes).
    var log: String { process.stderr.lines.suffix(40).joined(separator: "\n") }

    /// `http://127.0.0.1:PORT/PATH`, or the HTTPS listener's with `tls`.
    func url(_ path: String, tls: Bool = false) -> String {
        let slash = path.hasPrefix("/") ? "" : "/"
        guard tls else { return "http://127.0.0.1:\(port)\(slash)\(path)" }
        guard let tlsPort else { preconditionFailure("url(tls: true) of a server started without tls") }
        return "https://127.0.0.1:\(tlsPort)\(slash)\(path)"
    }

    /// Serves `body` as `contentType` at `path` (without query), ahead of every route: a
    /// playlist at `/pls/station.pls` (audio/x-scpls), `/m3u/…` (audio/x-mpegurl), anything.
    /// Registering a path again replaces its body.
    func register(path: String, body: Data, contentType: String) throws {
        try add(["path": path.hasPrefix("/") ? path : "/" + path, "type": contentType, "body": Self.hex(body)])
    }

    func register(path: String, body: String, contentType: String) throws {
        try register(path: path, body: Data(body.utf8), contentType: contentType)
    }

    /// The metadata `/icy/NAME` inserts for clients that ask for it: `blocks[i]` goes out after
    /// metaint × (i + 1) audio bytes exactly as given, its length byte included, so a test can
    /// send what real stations get wrong (see `icyBlock`); a zero length byte after the last.
    func registerICY(name: String, blocks: [Data], station: String = "Aubade Test Radio",
                     metaint: Int = 8192) throws {
        try add(["path": "icy:" + name, "blocks": blocks.map(Self.hex), "station": station, "metaint": metaint])
    }

    /// A well-formed ICY block for `text` (raw bytes: Latin-1, junk): the length byte
    /// (16-byte units) and the text padded with NULs, cut at the maximum of 4080 bytes.
    static func icyBlock(_ text: Data) -> Data {
        let text = text.prefix(4080)
        let units = (text.count + 15) / 16
        return Data([UInt8(units)]) + text + Data(repeating: 0, count: units * 16 - text.count)
    }

    /// `StreamTitle='TITLE';` as a block; the title's bytes as given.
    static func icyBlock(title: Data) -> Data {
        icyBlock(Data("StreamTitle='".utf8) + title + Data("';".utf8))
    }

    /// Every request so far, in order: "METHOD PATH" (the path as sent, query included), then
    /// " Range: VALUE" and " Icy-MetaData: VALUE" when the client sent those headers, then
    /// " (TLS)" for the HTTPS listener. E.g. "GET /file/a.mp3 Range: bytes=100-".
    func requests() -> [String] {
        guard let text = try? String(contentsOf: requestLog, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let method = object["method"] as? String, let path = object["path"] as? String else { return nil }
            var entry = "\(method) \(path)"
            if let range = object["range"] as? String { entry += " Range: \(range)" }
            if let icy = object["icy"] as? String { entry += " Icy-MetaData: \(icy)" }
            if object["tls"] as? Bool == true { entry += " (TLS)" }
            return entry
        }
    }

    /// Stops the server by PID (SIGTERM, then SIGKILL) and removes the temporary directory.
    func stop() {
        guard !stopped else { return }
        stopped = true
        process.stop(grace: 3)
        try? FileManager.default.removeItem(at: directory)
    }

    // MARK: Helpers

    /// Writes a registry entry under a new name, renamed into place so the server never reads half.
    private func add(_ entry: [String: Any]) throws {
        registered += 1
        let name = String(format: "%06d", registered)
        let temporary = registry.appendingPathComponent(name + ".tmp")
        try JSONSerialization.data(withJSONObject: entry).write(to: temporary)
        try FileManager.default.moveItem(at: temporary, to: registry.appendingPathComponent(name + ".json"))
    }

    private static func hex(_ bytes: Data) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// A CA (ca.pem) and a server certificate it signed for 127.0.0.1 and localhost
    /// (subjectAltName: what clients check), EC P-256 (fast to make), valid for a week.
    /// Returns the CA certificate's path.
    /// A test CA and a server certificate for 127.0.0.1 signed by it (`server.pem`, `server.key`
    /// in `folder`); returns the CA's file. Also used by the HLS tests' server.
    static func makeCertificates(in folder: URL) throws -> String {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try """
            basicConstraints=CA:FALSE
            keyUsage=critical,digitalSignature,keyEncipherment
            extendedKeyUsage=serverAuth
            subjectAltName=IP:127.0.0.1,DNS:localhost

            """.write(toFile: path("server.ext"), atomically: true, encoding: .utf8)
        let ecKey = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        let serial = "0x" + (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255)) }.joined()
        let steps: [[String]] = [
            ["req", "-x509"] + ecKey + ["-keyout", path("ca.key"), "-out", path("ca.pem"), "-days", "7",
                                         "-subj", "/CN=Aubade Test CA",
                                         "-addext", "basicConstraints=critical,CA:TRUE",
                                         "-addext", "keyUsage=critical,keyCertSign,cRLSign"],
            ["req"] + ecKey + ["-keyout", path("server.key"), "-out", path("server.csr"), "-subj", "/CN=127.0.0.1"],
            ["x509", "-req", "-in", path("server.csr"), "-CA", path("ca.pem"), "-CAkey", path("ca.key"),
             "-set_serial", serial, "-days", "7", "-extfile", path("server.ext"), "-out", path("server.pem")],
        ]
        for arguments in steps {
            let result = try Shell.run("openssl", arguments, timeout: 30)
            guard result.succeeded else { throw DaemonError("openssl \(arguments.prefix(2).joined(separator: " ")): \(result)") }
        }
        return path("ca.pem")
    }
}

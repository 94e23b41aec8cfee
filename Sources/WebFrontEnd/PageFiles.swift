import Glibc

/// The page's own files (`web/`: index.html, app.css, app.js, the manifest and the icon), read
/// once at start from a fixed list — no path of a request reaches the file system — and served
/// with an ETag and a MIME type. Small: the whole page is a few tens of KB.
struct PageFiles: Sendable {
    struct File: Sendable {
        var type: String
        var bytes: [UInt8]
        var etag: String
    }

    static let names: [(path: String, file: String, type: String)] = [
        ("/", "index.html", "text/html; charset=utf-8"),
        ("/index.html", "index.html", "text/html; charset=utf-8"),
        ("/app.css", "app.css", "text/css; charset=utf-8"),
        ("/app.js", "app.js", "text/javascript; charset=utf-8"),
        ("/manifest.webmanifest", "manifest.webmanifest", "application/manifest+json"),
        ("/icon.svg", "icon.svg", "image/svg+xml"),
    ]

    private(set) var files: [String: File] = [:]
    /// The folder they were read from, or nil when none was found (the log says so).
    private(set) var folder: String?

    /// Reads the files of the first of `folders` that has index.html.
    init(folders: [String]) {
        for folder in folders where Self.read(folder + "/index.html") != nil {
            self.folder = folder
            for name in Self.names {
                guard let bytes = Self.read(folder + "/" + name.file) else { continue }
                files[name.path] = File(type: name.type, bytes: bytes, etag: "\"\(Self.hash(bytes))\"")
            }
            return
        }
    }

    func response(for request: WebRequest) -> WebResponse? {
        guard let file = files[request.path] else { return nil }
        // The HTML is asked for again each time (a new version of the page is seen at once);
        // the rest is revalidated by its ETag.
        let headers: [(name: String, value: String)] = [
            ("ETag", file.etag), ("Cache-Control", "no-cache"),
            ("X-Content-Type-Options", "nosniff"),
            ("Content-Security-Policy", "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'"),
            ("Referrer-Policy", "no-referrer"),
        ]
        if request.header("if-none-match") == file.etag {
            return WebResponse(status: 304, headers: headers)
        }
        return WebResponse(status: 200, headers: [("Content-Type", file.type)] + headers, body: file.bytes)
    }

    /// At most 4 MiB: the page's files are small, a larger one is not ours.
    private static func read(_ path: String) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while bytes.count <= 4 << 20 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return count == 0 ? bytes : nil }
            bytes += chunk[..<count]
        }
        return nil
    }

    /// FNV-1a, 64 bits: an ETag needs to change with the bytes, not to resist anyone.
    static func hash(_ bytes: [UInt8]) -> String {
        var value: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            value ^= UInt64(byte)
            value = value &* 0x100_0000_01b3
        }
        return String(value, radix: 16)
    }
}

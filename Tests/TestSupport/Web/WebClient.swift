import Foundation

/// The page's HTTP API as any client reaches it: curl, one process a request (URLSession is
/// not on Linux without FoundationNetworking), the status, headers and body as sent. For the
/// exact bytes on a socket (a body the server refuses halfway) `RawHTTPConnection` is there.
struct WebClient {
    /// `http://HOST:PORT` (an IPv6 host in brackets).
    var base: String
    /// Sent with every request (a request's own headers win): the token, beyond loopback.
    var headers: [String: String] = [:]

    init(host: String = "127.0.0.1", port: Int, headers: [String: String] = [:]) {
        base = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        self.headers = headers
    }

    struct Answer: CustomStringConvertible {
        var status: Int
        var headers: [(name: String, value: String)]
        var body: Data

        var text: String { String(decoding: body, as: UTF8.self) }

        /// The first header called `name`, compared without case.
        func header(_ name: String) -> String? {
            headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
        }

        /// The body as JSON (an object, array, number…).
        func json() throws -> Any {
            try JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        }

        /// The body as a JSON object.
        func object() throws -> [String: Any] {
            guard let object = try json() as? [String: Any] else { throw DaemonError("not a JSON object: \(self)") }
            return object
        }

        var description: String {
            "HTTP \(status) \(headers.map { "\($0.name): \($0.value)" }.joined(separator: "; ")) body \(text.prefix(600).debugDescription)"
        }
    }

    /// One request: `method` on `path` (sent as written, `../` and all: `--path-as-is`),
    /// `headers` and `body` as given (no `Expect: 100-continue`).
    func request(_ method: String = "GET", _ path: String, headers: [String: String] = [:], body: Data? = nil,
                 timeout: TimeInterval = 20) throws -> Answer {
        var arguments = ["-sS", "-i", "--path-as-is", "--http1.1", "--max-time", String(Int(Sanitizer.scaled(timeout))),
                         "-X", method, "-H", "Expect:"]
        let all = self.headers.merging(headers) { _, new in new }
        for (name, value) in all.sorted(by: { $0.key < $1.key }) { arguments += ["-H", "\(name): \(value)"] }
        var bodyFile: URL?
        if let body {
            let file = TestRunDirectory.url.appendingPathComponent("body-\(UUID().uuidString)")
            try body.write(to: file)
            bodyFile = file
            arguments += ["--data-binary", "@" + file.path]
        }
        defer { if let bodyFile { try? FileManager.default.removeItem(at: bodyFile) } }
        arguments.append(base + path)
        let curl = try Subprocess("curl", arguments, binaryStdout: true)
        guard let status = curl.waitForExit(timeout: Sanitizer.scaled(timeout) + 5) else {
            curl.stop(grace: 1)
            throw DaemonError("curl \(arguments.joined(separator: " ")) did not finish")
        }
        curl.stdout.waitUntilClosed(timeout: 2)
        curl.stderr.waitUntilClosed(timeout: 2)
        guard status == 0 else { throw DaemonError("curl \(method) \(path): exit \(status): \(curl.stderr.text)") }
        return try Self.parse(curl.stdout.data)
    }

    func get(_ path: String, headers: [String: String] = [:]) throws -> Answer {
        try request("GET", path, headers: headers)
    }

    /// A JSON `POST` as the page sends it (`Content-Type: application/json`, no `Origin`
    /// unless `headers` says one).
    func post(_ path: String, _ object: [String: Any], headers: [String: String] = [:]) throws -> Answer {
        try request("POST", path, headers: ["Content-Type": "application/json"].merging(headers) { _, new in new },
                    body: try JSONSerialization.data(withJSONObject: object))
    }

    /// `GET path` answered 200, its body as a JSON object.
    func object(_ path: String, headers: [String: String] = [:]) throws -> [String: Any] {
        let answer = try get(path, headers: headers)
        guard answer.status == 200 else { throw DaemonError("GET \(path): \(answer)") }
        return try answer.object()
    }

    /// curl -i's output: the status line and headers of the last answer (a 100 Continue or a
    /// redirect's head before it skipped), then the body.
    static func parse(_ output: Data) throws -> Answer {
        var rest = output
        let end = Data("\r\n\r\n".utf8)
        while true {
            guard let range = rest.range(of: end) else {
                throw DaemonError("no HTTP head in curl's output: \(String(decoding: output.prefix(400), as: UTF8.self))")
            }
            let lines = String(decoding: rest[rest.startIndex..<range.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            rest = Data(rest[range.upperBound...])
            let words = (lines.first ?? "").split(separator: " ")
            guard words.count > 1, let status = Int(words[1]) else { throw DaemonError("not a status line: \(lines.first ?? "")") }
            if status == 100 { continue }
            let headers = lines.dropFirst().compactMap { line -> (name: String, value: String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            return Answer(status: status, headers: headers, body: rest)
        }
    }
}

import Foundation

/// A live HLS station for the tests: `ffmpeg -re … -f hls` writing a folder (a tone in 1 s
/// segments, a six-segment live playlist), served by `hls_server.py` (master playlist, a
/// playlist that names itself, a stall and a missing segment on demand). Both run by PID and
/// are stopped (then the folder removed) by `stop()`.
public final class HLSTestStation: @unchecked Sendable {
    public let directory: String
    public let port: Int
    private var encoder: Process?
    private let server: Process
    private let serverOutput: Pipe
    private let lock = NSLock()
    private var lines: [String] = []

    /// Whether it speaks HTTPS.
    public let tls: Bool

    /// Starts the server on `directory` (made if missing); no encoder yet (`startEncoder`).
    /// `certificate`: PEM certificate and key files: HTTPS.
    public init(directory: String, certificate: (cert: String, key: String)? = nil) throws {
        tls = certificate != nil
        self.directory = directory
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        server = Process()
        server.executableURL = URL(fileURLWithPath: PythonScript.interpreter)
        server.arguments = [try PythonScript.path("hls_server"), directory] + (certificate.map { [$0.cert, $0.key] } ?? [])
        serverOutput = Pipe()
        server.standardOutput = serverOutput
        server.standardError = FileHandle.nullDevice
        try server.run()
        let handle = serverOutput.fileHandleForReading
        var buffered = Data()
        var found: Int?
        while found == nil {
            let chunk = handle.availableData
            guard !chunk.isEmpty else { throw Fixtures.ToolFailed(description: "hls_server.py exited before listening") }
            buffered += chunk
            if let line = String(decoding: buffered, as: UTF8.self).split(separator: "\n").first(where: { $0.hasPrefix("PORT ") }) {
                found = Int(line.dropFirst(5))
            }
        }
        port = found!
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { return }
                let text = String(decoding: chunk, as: UTF8.self)
                lock.withLock { lines += text.split(separator: "\n").map(String.init) }
            }
        }.start()
    }

    deinit { stop() }

    public func url(_ path: String, credentials: String? = nil) -> String {
        "\(tls ? "https" : "http")://\(credentials.map { $0 + "@" } ?? "")127.0.0.1:\(port)/\(path)"
    }

    /// `ffmpeg -re` encoding a `frequency` Hz tone at `rate` to AAC in `segmentType` ("mpegts",
    /// "fmp4", or "packed": ADTS segments) segments of `segmentSeconds`; `append`: after an earlier encoder, the playlist
    /// goes on with a discontinuity.
    /// `timedID3`: a TS file of timed ID3 packets (`TimedID3Stream`) muxed beside the audio as
    /// its `timed_id3` data stream (MPEG-TS segments only). `changeTo`: the tone goes to this
    /// frequency at this second of the stream (where a title may change).
    public func startEncoder(frequency: Int = 440, rate: Int = 44_100, segmentSeconds: Int = 1,
                             segmentType: String = "mpegts", append: Bool = false,
                             timedID3: String? = nil, changeTo: (seconds: Double, frequency: Int)? = nil) throws {
        // Killed, not stopped: a stopped ffmpeg ends its playlist (#EXT-X-ENDLIST), as a
        // station going off the air for good would; a restarted encoder goes on after a
        // discontinuity.
        stopEncoder(abruptly: append)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.which("ffmpeg"))
        var flags = "delete_segments"
        if append { flags += "+append_list+discont_start" }
        let source = changeTo.map {
            "aevalsrc=sin(2*PI*if(lt(t\\,\($0.seconds))\\,\(frequency)\\,\($0.frequency))*t):sample_rate=\(rate)"
        } ?? "sine=frequency=\(frequency):sample_rate=\(rate)"
        var input = ["-nostdin", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i", source]
        if let timedID3 { input += ["-i", timedID3, "-map", "0:a", "-map", "1:d", "-c:d", "copy"] }
        input += ["-af", "volume=0.5", "-ac", "2", "-c:a", "aac", "-b:a", "64k"]
        if segmentType == "packed" {
            // Packed audio: ADTS segments, written by the segment muxer with a live m3u8 list.
            process.arguments = input + ["-f", "segment", "-segment_time", "\(segmentSeconds)", "-segment_format", "adts",
                                         "-segment_list", directory + "/live.m3u8", "-segment_list_type", "m3u8",
                                         "-segment_list_size", "6", "-segment_list_flags", "+live",
                                         directory + "/seg-\(frequency)-%05d.aac"]
        } else {
            process.arguments = input + ["-f", "hls", "-hls_time", "\(segmentSeconds)",
                                         "-hls_list_size", "6", "-hls_flags", flags, "-hls_segment_type", segmentType,
                                         "-hls_segment_filename", directory + "/seg-\(frequency)-%05d." + (segmentType == "fmp4" ? "m4s" : "ts"),
                                         directory + "/live.m3u8"]
        }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        lock.withLock { encoder = process }
    }

    /// Packed audio: every segment served gets an ID3 tag with its timestamp and the title
    /// current at its start (`packed_id3.py`); `titles`: (second, artist, title), the first at 0.
    public func setPackedTitles(_ titles: [(seconds: Double, artist: String, title: String)]) throws {
        try titles.map { "\($0.seconds)\t\($0.artist)\t\($0.title)\n" }.joined()
            .write(toFile: directory + "/packed-titles.txt", atomically: true, encoding: .utf8)
    }

    /// Packed audio: from `seconds` of the stream on, one segment each gets a malformed tag of
    /// each kind in turn (huge-size, frame-past-end, huge-frame, truncated, not-syncsafe).
    public func setPackedBadTags(from seconds: Double, kinds: [String]) throws {
        try kinds.enumerated().map { "\(seconds + Double($0.offset) * 0.001)\t\($0.element)\n" }.joined()
            .write(toFile: directory + "/packed-bad.txt", atomically: true, encoding: .utf8)
    }

    /// Waits until the live playlist lists `segments` segments.
    public func waitForSegments(_ segments: Int, timeout: Double = 20) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let text = try? String(contentsOfFile: directory + "/live.m3u8", encoding: .utf8),
               text.split(separator: "\n").filter({ !$0.hasPrefix("#") && !$0.isEmpty }).count >= segments { return true }
            Thread.sleep(forTimeInterval: 0.1)
        }
        return false
    }

    /// `abruptly`: SIGKILL at once (the playlist is left as it was, without an end).
    public func stopEncoder(abruptly: Bool = false) {
        let process = lock.withLock { () -> Process? in
            defer { encoder = nil }
            return encoder
        }
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, abruptly ? SIGKILL : SIGINT)  // SIGINT: ffmpeg ends its segment and playlist
        let deadline = Date(timeIntervalSinceNow: 3)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Asks the server's `/control/WHAT`; returns its answer.
    @discardableResult
    public func control(_ what: String) throws -> String {
        let (data, _) = try Self.get(url("control/" + what))
        return String(decoding: data, as: UTF8.self)
    }

    /// Every request so far, "GET /path STATUS".
    public var requests: [String] { lock.withLock { lines.filter { $0.hasPrefix("GET ") } } }

    public func stop() {
        stopEncoder()
        if server.isRunning {
            // SIGKILL: it has nothing to save, and a child of a test thread may have inherited a
            // signal mask that blocks SIGTERM (seen: the server lived on and the test hung).
            kill(server.processIdentifier, SIGKILL)
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    static func get(_ url: String) throws -> (Data, Int) {
        let result = try Fixtures.output("curl", ["-s", "-k", "-w", "\n%{http_code}", url])
        let text = String(decoding: result, as: UTF8.self)
        let status = Int(text.split(separator: "\n").last ?? "") ?? 0
        return (Data(text.utf8.dropLast(String(status).count + 1)), status)
    }

    static func which(_ tool: String) throws -> String {
        for folder in ["/usr/bin", "/bin", "/usr/local/bin"] where FileManager.default.isExecutableFile(atPath: folder + "/" + tool) {
            return folder + "/" + tool
        }
        throw Fixtures.ToolFailed(description: "\(tool) not found")
    }
}

extension Fixtures {
    /// `tool`'s standard output.
    public static func output(_ tool: String, _ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return data
    }
}

import Foundation
import XCTest

// Helpers for the queue, playlists, cover art and state tests (issue 4): the TrackList,
// Playlists and org.aubade.Queue1 calls through dbus-send, homes that outlive a daemon, the
// `aubade` CLI, and the extra music those tests need.

extension Bus {
    static let trackListInterface = "org.mpris.MediaPlayer2.TrackList"
    static let playlistsInterface = "org.mpris.MediaPlayer2.Playlists"
    static let queueInterface = "org.aubade.Queue1"

    /// TrackList.Tracks, in order.
    static func tracks() throws -> [String] {
        let value = try get(trackListInterface, "Tracks")
        guard case .array(let elements) = value else { throw BusError("Tracks is not an array: \(value)") }
        return try elements.map { element in
            guard case .objectPath(let path) = element else { throw BusError("Tracks holds \(element), not o") }
            return path
        }
    }

    /// AddTrack(s uri, o afterTrack, b setAsCurrent).
    static func addTrack(_ uri: String, after: String = noTrack, setAsCurrent: Bool = false,
                         timeout: TimeInterval = 60) throws -> DBusReply {
        try call("\(trackListInterface).AddTrack",
                 ["string:\(uri)", "objpath:\(after)", "boolean:\(setAsCurrent)"], timeout: timeout)
    }

    /// GetTracksMetadata(ao) → aa{sv}, as dictionaries (nil when the reply is not aa{sv}).
    static func tracksMetadata(_ ids: [String]) throws -> [[String: TypedBusValue]] {
        let reply = try call("\(trackListInterface).GetTracksMetadata", ["array:objpath:" + ids.joined(separator: ",")])
        guard reply.succeeded, let first = reply.values.first, case .array(let elements) = first else {
            throw BusError("GetTracksMetadata failed: \(reply)")
        }
        return try elements.map { element in
            guard let dictionary = element.dictionary else { throw BusError("not a{sv}: \(element)") }
            return dictionary
        }
    }

    static func trackList(_ method: String, _ arguments: [String] = []) throws -> DBusReply {
        try call("\(trackListInterface).\(method)", arguments)
    }

    /// ActivatePlaylist loads files: it may take as long as AddTrack does.
    static func playlists(_ method: String, _ arguments: [String] = [], timeout: TimeInterval = 60) throws -> DBusReply {
        try call("\(playlistsInterface).\(method)", arguments, timeout: timeout)
    }

    /// GetPlaylists(u, u, s, b) → a(oss), as (path, name, icon).
    static func getPlaylists(index: UInt32 = 0, maxCount: UInt32 = 100, order: String = "Alphabetical",
                             reverse: Bool = false) throws -> [(path: String, name: String, icon: String)] {
        let reply = try playlists("GetPlaylists", ["uint32:\(index)", "uint32:\(maxCount)", "string:\(order)",
                                                   "boolean:\(reverse)"])
        guard reply.succeeded, let first = reply.values.first, case .array(let elements) = first else {
            throw BusError("GetPlaylists failed: \(reply)")
        }
        return try elements.map { element in
            guard case .structure(let fields) = element, fields.count == 3, case .objectPath(let path) = fields[0],
                  case .string(let name) = fields[1], case .string(let icon) = fields[2] else {
                throw BusError("GetPlaylists element is not (oss): \(element)")
            }
            return (path, name, icon)
        }
    }

    static func queue(_ method: String, _ arguments: [String] = []) throws -> DBusReply {
        try call("\(queueInterface).\(method)", arguments)
    }
}

extension AubadeTestCase {
    // MARK: Homes and folders

    /// A fresh home for daemons the test starts with `home:` (left in place by `Daemon.stop`,
    /// removed with the test run's directory).
    func makeHome() throws -> URL {
        let home = TestRunDirectory.url.appendingPathComponent("home-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        return home
    }

    /// An empty folder of this test's own, under the test run's directory.
    func makeDirectory(_ name: String) throws -> URL {
        let directory = TestRunDirectory.url.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The daemon's state file in `home` (XDG_STATE_HOME = home/.local/state).
    func stateFile(in home: URL) -> URL {
        home.appendingPathComponent(".local/state/aubade/state.json")
    }

    /// Stops `daemon` with `signal` (SIGTERM or SIGKILL) and waits until it is gone and the bus
    /// dropped its name, so another daemon can take it. Returns the exit status.
    @discardableResult
    func terminate(_ daemon: Daemon, with signal: Int32 = SIGTERM, file: StaticString = #filePath,
                   line: UInt = #line) throws -> Int32? {
        let status: Int32?
        if signal == SIGKILL {
            daemon.process.signal(SIGKILL)
            status = daemon.waitForExit(timeout: 5)
        } else {
            status = daemon.process.stop(signal: signal, grace: 5)
        }
        XCTAssertNotNil(status, "aubade did not exit after signal \(signal)", file: file, line: line)
        try eventually("\(Daemon.busName) to be released", timeout: 5, file: file, line: line) {
            try !Bus.nameHasOwner(Daemon.busName)
        }
        return status
    }

    // MARK: The queue

    func tracks() throws -> [String] { try Bus.tracks() }

    /// Titles of the queue's entries, in order.
    func queueTitles() throws -> [String] {
        let ids = try tracks()
        guard !ids.isEmpty else { return [] }
        return try Bus.tracksMetadata(ids).map { $0["xesam:title"]?.string ?? "?" }
    }

    /// AddTrack, failing the test unless it succeeds.
    func addTrack(_ url: URL, after: String = Bus.noTrack, setAsCurrent: Bool = false,
                  file: StaticString = #filePath, line: UInt = #line) throws {
        let reply = try Bus.addTrack(url.absoluteString, after: after, setAsCurrent: setAsCurrent)
        XCTAssertTrue(reply.succeeded, "AddTrack \(url.absoluteString): \(reply)", file: file, line: line)
        if !reply.succeeded { throw BusError("AddTrack failed: \(reply)") }
    }

    // MARK: The command line

    /// `aubade ARGS…` as a person runs it (same session bus), in `directory` when given.
    func aubade(_ arguments: String..., in directory: URL? = nil) throws -> CommandResult {
        try Shell.run(try Daemon.binaryPath(), arguments, currentDirectory: directory, timeout: 60)
    }
}

/// Music made for the queue tests, once per run, beside the shared fixtures.
final class QueueFixtures: Sendable {
    let directory: URL

    /// Tagged "Covered", 2 s, with an embedded PNG (`coverImage`'s bytes).
    var embeddedCover: URL { directory.appendingPathComponent("covered/covered.mp3") }
    /// The picture embedded in `embeddedCover`.
    var coverImage: URL { directory.appendingPathComponent("cover-source.png") }
    /// An untagged MP3 with `cover.jpg` beside it.
    var folderCoverTrack: URL { directory.appendingPathComponent("foldercover/plain.mp3") }
    var folderCoverImage: URL { directory.appendingPathComponent("foldercover/cover.jpg") }
    /// One 6 s 440 Hz tone cut at 3 s: "Gapless A" then "Gapless B" (lame -b 192, LAME info tag).
    var gaplessA: URL { directory.appendingPathComponent("gapless/a.mp3") }
    var gaplessB: URL { directory.appendingPathComponent("gapless/b.mp3") }
    /// An untagged 0.5 s tone, to be hard-linked many times.
    var tiny: URL { directory.appendingPathComponent("tiny.mp3") }

    private init(directory: URL) { self.directory = directory }

    static func shared() throws -> QueueFixtures { try made.get() }
    private static let made: Result<QueueFixtures, any Error> = Result {
        QueueFixtures(directory: try FixtureCache.folder("queue-music") { try make(in: $0) })
    }

    private static func make(in directory: URL) throws {
        for sub in ["covered", "foldercover", "gapless"] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(sub),
                                                    withIntermediateDirectories: true)
        }
        let fixtures = QueueFixtures(directory: directory)
        let wav = directory.appendingPathComponent("tone.wav")

        try TinyImages.png.write(to: fixtures.coverImage)
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "2", "sine", "523", "vol", "0.5"])
        try lame(["--add-id3v2", "--tt", "Covered", "--ta", "Painter", "--ti", fixtures.coverImage.path,
                  wav.path, fixtures.embeddedCover.path])
        try lame([wav.path, fixtures.folderCoverTrack.path])
        try TinyImages.jpeg.write(to: fixtures.folderCoverImage)

        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "0.5", "sine", "610", "vol", "0.5"])
        try lame([wav.path, fixtures.tiny.path])

        // The gapless pair: one continuous tone, cut at exactly 3 s (132 300 frames).
        let whole = directory.appendingPathComponent("gapless/whole.wav")
        let partA = directory.appendingPathComponent("gapless/a.wav")
        let partB = directory.appendingPathComponent("gapless/b.wav")
        try sox(["-n", "-r", "44100", "-c", "2", "-b", "16", whole.path, "synth", "6", "sine", "440", "vol", "0.5"])
        try sox([whole.path, partA.path, "trim", "0", "3"])
        try sox([whole.path, partB.path, "trim", "3"])
        try lame(["-b", "192", "--add-id3v2", "--tt", "Gapless A", "--tn", "1", partA.path, fixtures.gaplessA.path])
        try lame(["-b", "192", "--add-id3v2", "--tt", "Gapless B", "--tn", "2", partB.path, fixtures.gaplessB.path])
        for file in [wav, whole, partA, partB] { try? FileManager.default.removeItem(at: file) }
    }

    /// A folder holding `count` hard links to `tiny` ("0001.mp3", …), made anew.
    func folderOfTinyFiles(_ count: Int, name: String) throws -> URL {
        let folder = TestRunDirectory.url.appendingPathComponent("\(name)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let width = String(count).count
        for number in 1...count {
            let label = String(number)
            let target = folder.appendingPathComponent(String(repeating: "0", count: width - label.count) + label + ".mp3")
            if link(tiny.path, target.path) != 0 {
                try FileManager.default.copyItem(at: tiny, to: target)
            }
        }
        return folder
    }

    private static func sox(_ arguments: [String]) throws {
        let result = try Shell.run("sox", ["-q"] + arguments, timeout: 60)
        guard result.succeeded else { throw DaemonError("sox \(arguments): \(result)") }
    }

    private static func lame(_ arguments: [String]) throws {
        let result = try Shell.run("lame", ["--quiet"] + arguments, timeout: 120)
        guard result.succeeded else { throw DaemonError("lame \(arguments): \(result)") }
    }
}

/// Small valid pictures, written by hand (no image tool needed).
enum TinyImages {
    /// A 2×2 RGB PNG (red, green / blue, white): signature, IHDR, one stored-deflate IDAT, IEND.
    static let png: Data = {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc32(typed))
        }
        let rows: [UInt8] = [0, 255, 0, 0, 0, 255, 0,   // filter 0, red, green
                             0, 0, 0, 255, 255, 255, 255]  // filter 0, blue, white
        // zlib: header, one final stored block, Adler-32.
        let length = UInt16(rows.count)
        let deflate: [UInt8] = [0x78, 0x01, 0x01, UInt8(length & 0xFF), UInt8(length >> 8),
                                UInt8(~length & 0xFF), UInt8(~length >> 8)] + rows + bigEndian(adler32(rows))
        let header = bigEndian(2) + bigEndian(2) + [8, 2, 0, 0, 0]  // 2×2, 8 bits, RGB
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", deflate) + chunk("IEND", [])
        return Data(bytes)
    }()

    /// A 1×1 JPEG (JFIF, arithmetic coded: the 125-byte smallest complete JPEG, ending in EOI).
    static let jpeg = Data(base64Encoded: "/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAAMCAgICAgMCAgIDAwMDBAYEBAQEBAgGBgUGCQgKCgkICQkKDA8MCgsOCwkJDRENDg8QEBEQCgwSExIQEw8QEBD/yQALCAABAAEBAREA/8wABgAQEAX/2gAIAQEAAD8A0s8g/9k=")!

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}

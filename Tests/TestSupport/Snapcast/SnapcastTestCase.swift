import Foundation
import SoundAnalysis
import XCTest

/// Base of the Snapcast tests: a private snapserver (ports, configuration and pipe of its own,
/// Aubade's control script on its stream), the house's two rooms (`kitchen` and `garden`, a
/// snapclient each), and `aubade serve` with `output = snapcast` into it. Everything is stopped
/// by PID and removed after each test; the daemon first, then the rooms, the server, the sinks.
class SnapcastTestCase: AudioSessionTestCase {
    private(set) var house: SnapcastHouse!
    private(set) var snapserver: PrivateSnapserver!
    private(set) var rooms: [SnapcastRoom] = []
    private var clients: [SnapcastRPC] = []
    var recording: HouseRecording?

    override func setUpWithError() throws {
        try super.setUpWithError()
        house = try SnapcastHouse()
        snapserver = try PrivateSnapserver()
        try snapserver.start()
    }

    override func tearDown() {
        _ = recording?.stop()
        recording = nil
        for client in clients { client.close() }
        clients.removeAll()
        let failed = (testRun?.failureCount ?? 0) > 0
        super.tearDown()  // the daemons
        for room in rooms { room.stop() }
        if failed, let snapserver {
            print("--- snapserver log:\n" + snapserver.log.split(separator: "\n").suffix(60).joined(separator: "\n"))
            for room in rooms {
                print("--- snapclient \(room.name) log:\n" + room.process.stderr.lines.suffix(30).joined(separator: "\n"))
            }
        }
        rooms.removeAll()
        snapserver?.remove()
        house?.remove()
    }

    /// The rooms are PulseAudio sinks, as the issue has them. On PipeWire's pulse layer a
    /// snapclient that joins a running stream starts 20–30 ms off and its corrections cut
    /// 10–15 ms holes into what it plays (seen in the joined-mid-track and gapless tests, not in
    /// Aubade's pipe, whose bytes the control tests count): those tests judge the rooms on
    /// PulseAudio only, and say so on PipeWire.
    func requireRoomsOnPulseAudio() throws {
        if server == .pipewire {
            throw XCTSkip("judges what snapclient plays: on PulseAudio only (snapclient on PipeWire's pulse layer drifts)")
        }
    }

    /// Starts the rooms' snapclients (both unless told).
    func openRooms(_ names: [SnapcastHouse.Room] = SnapcastHouse.Room.allCases) throws {
        for name in names { rooms.append(try SnapcastRoom(name.rawValue, server: snapserver)) }
    }

    /// Stops a room's snapclient and starts a new one.
    func restartRoom(_ name: SnapcastHouse.Room) throws {
        if let index = rooms.firstIndex(where: { $0.name == name.rawValue }) { rooms.remove(at: index).stop() }
        try openRooms([name])
    }

    /// `aubade serve --config <snapcast> FILES`, waiting for its bus name.
    @discardableResult
    func startAubade(_ files: [URL], extraConfiguration: String = "") throws -> Daemon {
        let configuration = try snapserver.aubadeConfiguration(extra: extraConfiguration)
        return try startDaemon(["--config", configuration.path] + files.map(\.path))
    }

    /// A JSON-RPC client of the server's control port (one per server run), closed after the test.
    func controlClient() throws -> SnapcastRPC {
        if let client = clients.last, client.port == snapserver.controlPort, client.isOpen { return client }
        let client = try SnapcastRPC(port: snapserver.controlPort)
        clients.append(client)
        return client
    }

    /// Waits until every room's snapclient is connected to the server.
    func waitForRooms(timeout: TimeInterval = 10, file: StaticString = #filePath, line: UInt = #line) throws {
        let expected = Set(rooms.map(\.name))
        try eventually("the rooms \(expected) connected", timeout: timeout, file: file, line: line) {
            expected.isSubset(of: try connectedRooms())
        }
    }

    /// The rooms whose snapclient is connected now, as Server.GetStatus says.
    func connectedRooms() throws -> Set<String> {
        let client = try controlClient()
        let status = try client.call("Server.GetStatus") as? [String: Any]
        let groups = (status?["server"] as? [String: Any])?["groups"] as? [[String: Any]] ?? []
        return Set(groups.flatMap { $0["clients"] as? [[String: Any]] ?? [] }
            .filter { $0["connected"] as? Bool == true }.compactMap { $0["id"] as? String })
    }

    /// Starts recording both rooms and waits until audio (silence) flows.
    func startRecording() throws -> HouseRecording {
        let recording = try HouseRecording()
        self.recording = recording
        guard recording.waitForSeconds(0.2, timeout: 10) else {
            throw DaemonError("parec delivered nothing from house.monitor within 10 s")
        }
        return recording
    }

    /// Records `seconds` more, stops, and returns each room's left channel as ToneAnalysis reads it.
    func record(_ recording: HouseRecording, for seconds: Double) throws -> [SnapcastHouse.Room: ToneAnalysis] {
        guard recording.waitForSeconds(recording.seconds + seconds, timeout: seconds + 10) else {
            throw DaemonError("the house recording stalled at \(recording.seconds) s")
        }
        let rooms = recording.stop()
        self.recording = nil
        return rooms.mapValues(ToneAnalysis.init)
    }

    /// The loudness of `audio` over its last `seconds` (99th percentile of |x|).
    func level(_ audio: ToneAnalysis, lastSeconds seconds: Double) -> Double {
        let count = audio.samples.count
        let from = max(0, count - Int(seconds * ToneAnalysis.rate))
        return audio.amplitude(in: from..<count)
    }

    /// Waits for the rooms to reconnect to the restarted server. snapclient 0.26 sometimes hangs
    /// for good when it connects in the first milliseconds of a starting server (seen here: the
    /// server closed the connection before its Hello, the client waited on it); such a room is
    /// started again, and said so: that is the client's fault, not Aubade's.
    func reconnectRooms() throws {
        let deadline = Date(timeIntervalSinceNow: 8)
        while Date() < deadline, (try? connectedRooms().count) != SnapcastHouse.Room.allCases.count {
            Thread.sleep(forTimeInterval: 0.2)
        }
        let connected = (try? connectedRooms()) ?? []
        for room in SnapcastHouse.Room.allCases where !connected.contains(room.rawValue) {
            print("snapclient \(room.rawValue) did not reconnect (snapclient 0.26's reconnect hang): starting it again")
            try restartRoom(room)
        }
        try waitForRooms(timeout: 10)
    }
}

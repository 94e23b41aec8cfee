import Foundation
import XCTest
import AudioOutput
import PlayerCore
@testable import TestSupport

/// Losing and regaining the sound server; needs a server of its own to kill (by PID).
final class ServerLossTests: XCTestCase {
    func testConnectFailsWithoutServerThenLossAndReconnectAreReported() throws {
        let server = try PulseServer()
        try XCTSkipIf(server.isExternal, "needs a private pulseaudio it may stop")
        defer {
            server.stop()
            server.removeFiles()
        }

        // No server yet: connect() throws instead of autospawning one.
        let offline = PulseAudioOutput(identity: StreamIdentity()) { _ in }
        XCTAssertThrowsError(try offline.connect()) { error in
            guard case OutputError.serverUnreachable = error else { return XCTFail("\(error)") }
        }
        offline.shutdown()

        try server.start()
        let log = EventLog()
        let output = PulseAudioOutput(identity: StreamIdentity()) { log.append($0) }
        defer { output.shutdown() }
        try output.connect()
        output.play(sineSource(seconds: 10), entry: EntryID(7), title: "Sine", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(EntryID(7))))

        server.stop()
        XCTAssertNotNil(log.wait(timeout: 3) { if case .serverLost = $0 { true } else { false } })
        XCTAssertNil(output.streamIndex)
        XCTAssertFalse(output.isConnected)

        try server.start()
        XCTAssertTrue(eventually(timeout: 5) { log.events.filter { $0 == .serverConnected }.count == 2 },
                      "\(log.events)")
        output.play(sineSource(seconds: 10), entry: EntryID(8), title: "Again", artist: nil, playing: true)
        XCTAssertNotNil(log.wait(for: .started(EntryID(8))))
        XCTAssertNotNil(output.streamIndex)
    }
}

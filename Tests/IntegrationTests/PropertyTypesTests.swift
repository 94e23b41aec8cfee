import Foundation
import XCTest
@testable import TestSupport

/// Every Player property has the wire type MPRIS specifies (clients such as BlueZ's
/// mpris-proxy reject a player whose types are wrong).
final class PropertyTypesTests: AubadeTestCase {
    func testPlayerPropertiesHaveTheSpecifiedTypes() throws {
        try startPlaying([fixtures.long])
        let player = try Bus.getAll(Bus.playerInterface)
        let expected: [String: String] = [
            "PlaybackStatus": "s", "LoopStatus": "s", "Rate": "d", "MinimumRate": "d", "MaximumRate": "d",
            "Shuffle": "b", "Metadata": "a{sv}", "Volume": "d", "Position": "x",
            "CanGoNext": "b", "CanGoPrevious": "b", "CanPlay": "b", "CanPause": "b", "CanSeek": "b", "CanControl": "b",
        ]
        for (name, signature) in expected.sorted(by: { $0.key < $1.key }) {
            XCTAssertEqual(player[name]?.signature, signature, "type of \(name): \(player[name].map(String.init(describing:)) ?? "missing")")
        }
    }

    func testRateIsFixedAtOne() throws {
        try startPlaying([fixtures.long])
        let player = try Bus.getAll(Bus.playerInterface)
        XCTAssertEqual(player["Rate"], .double(1))
        XCTAssertEqual(player["MinimumRate"], .double(1))
        XCTAssertEqual(player["MaximumRate"], .double(1))
    }

    func testControlCapabilitiesAreTrueWhilePlaying() throws {
        try startPlaying([fixtures.long])
        let player = try Bus.getAll(Bus.playerInterface)
        for name in ["CanPlay", "CanPause", "CanSeek", "CanControl"] {
            XCTAssertEqual(player[name], .boolean(true), name)
        }
    }

    func testInitialLoopStatusIsNoneAndShuffleIsOff() throws {
        try startDaemon([fixtures.long])
        XCTAssertEqual(try playerProperty("LoopStatus"), .string("None"))
        XCTAssertEqual(try playerProperty("Shuffle"), .boolean(false))
    }

    func testGetAnswersWithAVariant() throws {
        try startDaemon([fixtures.long])
        let reply = try Bus.getRaw(Bus.playerInterface, "Position")
        XCTAssertTrue(reply.succeeded, "\(reply)")
        XCTAssertEqual(reply.values.first?.signature, "v")
        XCTAssertEqual(reply.values.first?.unwrapped.signature, "x")
    }
}

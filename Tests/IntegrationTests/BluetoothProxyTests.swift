import DBusKit
import Foundation
import XCTest
@testable import TestSupport

/// Headsets and car kits: AVRCP reaches an MPRIS player through BlueZ's real `mpris-proxy`,
/// which registers the player with bluetoothd (here python3-dbusmock's bluez5 on a stand-in
/// system bus: there is no Bluetooth adapter) and forwards commands both ways. bluetoothd reads
/// the player strictly (`BlueZPlayerRules`).
final class BluetoothProxyTests: AubadeTestCase {
    private var bluetooth: StandInBluetooth?

    override func tearDown() {
        if let bluetooth {
            if (testRun?.failureCount ?? 0) > 0 { print(bluetooth.log) }
            bluetooth.stop()
        }
        bluetooth = nil
        super.tearDown()
    }

    /// The stand-in bluetoothd and mpris-proxy, once Aubade is up; returns the path mpris-proxy
    /// registered Aubade at (its unique name, mangled: ":1.7" → "/_1_7") and its properties.
    private func connectHeadset(_ daemon: Daemon) throws -> (path: String, properties: [String: DBusKit.DBusValue]) {
        let bluetooth = try StandInBluetooth()
        self.bluetooth = bluetooth
        try bluetooth.startProxy()
        let unique = try XCTUnwrap(try Bus.nameOwner(Daemon.busName))
        let path = "/" + unique.replacingOccurrences(of: ":", with: "_").replacingOccurrences(of: ".", with: "_")
        var registered: [String: DBusKit.DBusValue]?
        try eventually("mpris-proxy registers Aubade with bluetoothd", timeout: 10) {
            registered = try bluetooth.registrations().first { $0.path == path }?.properties
            return registered != nil
        }
        return (path, try XCTUnwrap(registered))
    }

    /// bluetoothd's parser takes everything Aubade sends at RegisterPlayer: every property and
    /// Metadata entry in its type (a wrong one fails the registration), and the Can* flags
    /// bluetoothd checks before it forwards a command.
    func testMprisProxyRegistersAubadeWithTheTypesBlueZRequires() throws {
        let daemon = try startPlaying([fixtures.alpha, fixtures.beta, fixtures.long])
        try playerctl("pause")
        try waitForStatus("Paused")
        let (_, properties) = try connectHeadset(daemon)

        XCTAssertEqual(BlueZPlayerRules.problems(in: properties, isRegistration: true), [], "\(properties)")
        XCTAssertEqual(properties["PlaybackStatus"]?.asString, "Paused")
        XCTAssertEqual(properties["LoopStatus"]?.asString, "None")
        for flag in ["CanPlay", "CanPause", "CanGoNext", "CanControl"] {
            XCTAssertEqual(properties[flag]?.asBool, true, "\(flag): bluetoothd refuses the command when it is false")
        }
        let metadata = try XCTUnwrap(properties["Metadata"]?.asVardict)
        XCTAssertEqual(metadata["xesam:title"]?.asString, "Alpha")
        XCTAssertEqual(metadata["xesam:artist"]?.asStringArray, ["Ann"])
        XCTAssertEqual(metadata["xesam:album"]?.asString, "Demo")
        XCTAssertEqual(metadata["xesam:genre"]?.asStringArray, ["Rock"])
        XCTAssertEqual(metadata["xesam:trackNumber"], .int32(1))
        XCTAssertEqual(metadata["mpris:length"], .int64(TestMusic.alphaLengthMicroseconds))
    }

    /// AVRCP play, pause, next, previous, shuffle, repeat and volume, sent as bluetoothd sends
    /// them (to the path mpris-proxy registered, not waiting for a reply), reach Aubade.
    func testAVRCPCommandsReachAubade() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.long2])
        let (path, _) = try connectHeadset(daemon)
        let bluetooth = try XCTUnwrap(self.bluetooth)

        try bluetooth.sendCommand("Pause", to: path)
        try waitForStatus("Paused")
        try bluetooth.sendCommand("Play", to: path)
        try waitForStatus("Playing")
        try bluetooth.sendCommand("Next", to: path)
        try waitForTitle("Long Two")
        try bluetooth.sendCommand("Previous", to: path)
        try waitForTitle("Long One")

        // media.c's set_shuffle_setting / set_repeat_setting: Properties.Set on the player.
        try bluetooth.setProperty("Shuffle", .boolean(true), at: path)
        try eventually("Shuffle on") { try self.playerProperty("Shuffle").bool == true }
        try bluetooth.setProperty("LoopStatus", .string("Playlist"), at: path)
        try eventually("LoopStatus Playlist") { try self.playerProperty("LoopStatus").string == "Playlist" }
        try bluetooth.setProperty("Volume", .double(0.25), at: path)
        try eventually("Volume 0.25") { try self.playerProperty("Volume").double == 0.25 }
        XCTAssertTrue(bluetooth.proxyIsRunning, "mpris-proxy exited: \(bluetooth.log)")
    }

    /// What Aubade announces comes back to bluetoothd as PropertiesChanged and Seeked on the
    /// registered path (AVRCP's TRACK_CHANGED, PLAYBACK_STATUS_CHANGED, position), in the types
    /// it reads; and when Aubade leaves, mpris-proxy unregisters it.
    func testTrackAndStatusChangesComeBackToTheSystemBus() throws {
        let daemon = try startPlaying([fixtures.long, fixtures.alpha])
        let (path, _) = try connectHeadset(daemon)
        let bluetooth = try XCTUnwrap(self.bluetooth)
        let proxy = try bluetooth.proxyConnection()
        try bluetooth.client.watchSignals(matching: "type='signal',sender='\(proxy)',path='\(path)'")

        func changed(_ name: String, where matches: @escaping (DBusKit.DBusValue) -> Bool) -> [String: DBusKit.DBusValue]? {
            let signal = bluetooth.client.waitForSignal(timeout: 10) { message in
                guard message.member == "PropertiesChanged", let arguments = try? message.arguments(),
                      arguments.first?.asString == StandInBluetooth.playerInterface,
                      let value = arguments.dropFirst().first?.asVardict?[name] else { return false }
                return matches(value.unwrapped)
            }
            return signal.flatMap { try? $0.arguments() }?.dropFirst().first?.asVardict
        }

        try playerctl("pause")
        let paused = changed("PlaybackStatus") { $0.asString == "Paused" }
        XCTAssertNotNil(paused, "no PlaybackStatus Paused on the system bus")
        XCTAssertEqual(BlueZPlayerRules.problems(in: paused ?? [:]), [])

        try playerctl("next")
        let track = changed("Metadata") { $0.asVardict?["xesam:title"]?.asString == "Alpha" }
        XCTAssertNotNil(track, "no Metadata of the next track on the system bus")
        XCTAssertEqual(BlueZPlayerRules.problems(in: track ?? [:]), [], "\(track ?? [:])")

        try playerctl("position", "1")
        let seeked = bluetooth.client.waitForSignal(timeout: 10) { $0.member == "Seeked" }
        XCTAssertEqual(seeked.flatMap { try? $0.arguments() }?.first?.signature, "x", "Seeked(x) on the system bus")

        daemon.stop()
        try eventually("mpris-proxy unregisters Aubade when it leaves", timeout: 10) {
            try bluetooth.unregistrations().contains(path)
        }
    }
}

import Foundation
import XCTest
@testable import TestSupport

/// Route changes, with null sinks standing in for devices: the `headphones` sink (the default,
/// device.form_factor=headphone) going away is a headphone unplug; the server then moves our
/// stream to `speakers`. Runs on PulseAudio and on PipeWire.
final class RouteChangeTests: AudioSessionTestCase {
    /// The unplug: Paused, RouteChanged(oldDeviceUnavailable) on the bus, PauseReason
    /// routeChange, the route now the speakers, and hardly any of our music from the speakers.
    func testUnplugPausesBeforeTheSpeakersPlayOurMusic() throws {
        let (daemon, _) = try startPlayingOnHeadphones()
        let monitor = try monitor(daemon)
        // Recording before the unplug, and already delivering: whatever reaches the speakers
        // after the move is caught.
        let speakers = try MonitorRecording(device: "speakers.monitor")
        try speakers.waitForAudio(seconds: 0.3, timeout: 10)
        let mark = monitor.mark
        let recordedBeforeUnplug = speakers.seconds

        try Pulse.unloadNullSink("headphones")

        try waitForStatus("Paused")
        let change = waitForRouteChange("oldDeviceUnavailable", on: monitor, after: mark)
        XCTAssertEqual(change?.previous.sinkName, "headphones", "RouteChanged previous route")
        XCTAssertEqual(change?.previous.portType, "headphones", "RouteChanged previous route")
        // The signals must end at the speakers: either this change's current route is them
        // (PulseAudio moves our stream as it removes the sink), or it is empty and a later
        // RouteChanged brings us there (PipeWire removes the sink first and moves the stream a
        // moment later; the daemon may announce the two steps separately).
        if let change, change.current.sinkName != "speakers" {
            XCTAssertTrue(change.current.values.isEmpty, "RouteChanged current route: \(change.current)")
            let arrival = monitor.waitForMessage(after: mark) {
                ($0.routeChange.map { $0.reason != "oldDeviceUnavailable" && $0.current.sinkName == "speakers" }) ?? false
            }
            XCTAssertNotNil(arrival, "oldDeviceUnavailable left the route empty and no RouteChanged to the speakers "
                            + "followed: \(describeAudioSessionSignals(monitor, after: mark))")
            print("the unplug was announced in two steps (\(server.rawValue)): oldDeviceUnavailable to no route, "
                  + "then \(arrival?.routeChange?.reason ?? "nothing") to the speakers")
        }
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "routeChange")
        try eventually("CurrentRoute sinkName speakers (is \((try? AudioSessionBus.currentRoute())?.description ?? "?"))") {
            try AudioSessionBus.currentRoute().sinkName == "speakers"
        }

        // Up to ~2 s of monitor lag, then a second of what the speakers played after the move.
        try speakers.waitForAudio(seconds: recordedBeforeUnplug + 3, timeout: 15)
        let sound = SoundDuration.measure(speakers.stop())
        print("speakers.monitor after the unplug (\(server.rawValue)): \(sound)")
        print("audio-session signals after the unplug: \(describeAudioSessionSignals(monitor, after: mark))")
        XCTAssertLessThanOrEqual(sound.seconds, 0.150,
                                 "our music reached the speakers after the unplug for too long: \(sound)")
        XCTAssertEqual(try playbackStatus(), "Paused")
    }

    /// The user moving our stream to another sink is an override: a RouteChanged, no pause.
    func testMovingOurStreamIsAnOverrideAndKeepsPlaying() throws {
        let (daemon, stream) = try startPlayingOnHeadphones()
        let monitor = try monitor(daemon)
        let mark = monitor.mark

        try Pulse.moveSinkInput(stream.index, to: "speakers")

        let change = waitForRouteChange("override", on: monitor, after: mark)
        XCTAssertEqual(change?.current.sinkName, "speakers", "RouteChanged current route")
        try assertStatusStays("Playing", for: 1.5, "after our stream was moved")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        XCTAssertEqual(try AudioSessionBus.currentRoute().sinkName, "speakers")
        try waitForStream(of: daemon, "our stream uncorked on speakers") {
            try $0.corked == false && Pulse.sinkName(of: $0) == "speakers"
        }
        XCTAssertTrue(try Pulse.listen(seconds: 1, device: "speakers.monitor").isSound, "speakers after the move")
    }

    /// A new device appearing (a USB sink) may be announced as newDeviceAvailable, but never pauses.
    func testANewSinkDoesNotPause() throws {
        let (daemon, _) = try startPlayingOnHeadphones()
        let monitor = try monitor(daemon)
        let mark = monitor.mark

        try Pulse.loadNullSink("usb", properties: "device.bus=usb device.description=USB")

        try assertStatusStays("Playing", for: 2, "after a new sink appeared")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        let changes = monitor.messages.dropFirst(mark).compactMap(\.routeChange)
        for change in changes {
            XCTAssertEqual(change.reason, "newDeviceAvailable", "a new sink appearing: \(change)")
        }
        print("RouteChanged signals for the new sink: \(changes.map(\.reason))")
        // Neither server moves a stream to a sink just because it appeared.
        XCTAssertEqual(try Pulse.sinkInput(ofProcess: daemon.pid).flatMap(Pulse.sinkName(of:)), "headphones")
    }

    /// After the unplug pause, Play plays on the speakers, and the daemon does not pause itself
    /// again for the old unplug.
    func testPlayAfterTheUnplugPlaysOnTheSpeakers() throws {
        let (daemon, _) = try startPlayingOnHeadphones()
        try Pulse.unloadNullSink("headphones")
        try waitForStatus("Paused")
        try waitForPauseReason("routeChange")

        try playerctl("play")

        try waitForStatus("Playing")
        try waitForStream(of: daemon, "our stream uncorked on speakers") {
            try $0.corked == false && Pulse.sinkName(of: $0) == "speakers"
        }
        XCTAssertTrue(try Pulse.listen(seconds: 1, device: "speakers.monitor").isSound, "speakers after Play")
        try assertStatusStays("Playing", for: 1, "after Play on the speakers")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
        XCTAssertEqual(try AudioSessionBus.currentRoute().sinkName, "speakers")
    }

    /// ResumeOnReconnect is off by default, so the headphones coming back do not resume.
    /// (On PipeWire, WirePlumber moves our stream back to them, the default sink; on PulseAudio
    /// it stays on the speakers. Neither resumes.)
    func testReplugDoesNotResumeByDefault() throws {
        try startPlayingOnHeadphones()
        XCTAssertEqual(try AudioSessionBus.resumeOnReconnect(), false, "ResumeOnReconnect default")
        try Pulse.unloadNullSink("headphones")
        try waitForStatus("Paused")

        try Pulse.restoreStandardSinks()

        try assertStatusStays("Paused", for: 2, "after the headphones came back")
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "routeChange")
    }

    /// CurrentRoute while playing on the headphones: the sink, its description and port type.
    func testCurrentRouteIsTheHeadphones() throws {
        try startPlayingOnHeadphones()
        var route = Route(nil)
        try eventually("CurrentRoute sinkName headphones (is \(route))") {
            route = try AudioSessionBus.currentRoute()
            return route.sinkName == "headphones"
        }
        XCTAssertEqual(route.portType, "headphones", "\(route)")
        XCTAssertEqual(route.values["description"]?.string, "Headphones", "\(route)")
        for (key, value) in route.values {
            XCTAssertEqual(value.signature, "s", "CurrentRoute[\(key)] should be a string: \(route)")
        }
        XCTAssertEqual(try AudioSessionBus.pauseReason(), "none")
    }
}

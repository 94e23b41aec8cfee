import Foundation
import XCTest
@testable import TestSupport

/// Checks of the harness for the audio-session tests, without the daemon: the server is the one
/// `AUBADE_SOUND_SERVER` names, with the two sinks, and the tests' sink changes can be undone.
final class SoundServerTests: AudioSessionTestCase {
    func testTheServerIsTheOneNamed() throws {
        let name = try Pulse.serverName()
        print("AUBADE_SOUND_SERVER=\(ProcessInfo.processInfo.environment["AUBADE_SOUND_SERVER"] ?? "(unset)"), server: \(name)")
        switch server {
        case .pipewire:
            XCTAssertTrue(name.contains("PipeWire"), name)
            XCTAssertFalse(try Pulse.roleCorkIsLoaded(), "PipeWire has no role-cork")
        case .pulseaudio:
            XCTAssertFalse(name.contains("PipeWire"), name)
            XCTAssertTrue(try Pulse.roleCorkIsLoaded(), "audio-session loads module-role-cork on PulseAudio")
        }
    }

    func testTheTwoSinksWithHeadphonesAsDefault() throws {
        XCTAssertEqual(Set(try Pulse.sinkNames().values), ["headphones", "speakers"])
        XCTAssertEqual(try Pulse.defaultSink(), "headphones")
        XCTAssertEqual(Set(try Pulse.nullSinkModules().map(\.sinkName)), ["headphones", "speakers"])
        let sinks = try Pulse.pactl(["list", "sinks"])
        XCTAssertTrue(sinks.contains("device.form_factor = \"headphone\""), sinks)
        XCTAssertTrue(sinks.contains("device.form_factor = \"speaker\""), sinks)
    }

    func testUnloadedAndAddedSinksAreRestored() throws {
        try Pulse.unloadNullSink("headphones")
        try Pulse.loadNullSink("usb")
        try eventually("headphones gone, usb there") {
            let names = Set(try Pulse.sinkNames().values)
            return !names.contains("headphones") && names.contains("usb")
        }
        try Pulse.restoreStandardSinks()
        XCTAssertEqual(Set(try Pulse.sinkNames().values), ["headphones", "speakers"])
        XCTAssertEqual(try Pulse.defaultSink(), "headphones")
    }

    /// Both sinks still there, only the default moved: not the case the restore leaves alone.
    func testADefaultMovedToTheSpeakersIsPutBack() throws {
        try Pulse.pactl(["set-default-sink", "speakers"])
        try eventually("speakers the default") { try Pulse.defaultSink() == "speakers" }
        try Pulse.restoreStandardSinks()
        XCTAssertEqual(try Pulse.defaultSink(), "headphones")
    }

    /// The recorder and the measure the unplug test relies on: a monitor that hears a known
    /// length of tone reports about that length.
    func testSoundDurationMeasuresAKnownTone() throws {
        let recording = try MonitorRecording(device: "speakers.monitor")
        try recording.waitForAudio(seconds: 0.2, timeout: 10)
        let wav = TestRunDirectory.url.appendingPathComponent("tone-300ms.wav")
        let made = try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path,
                                         "synth", "0.3", "sine", "440", "vol", "0.5"])
        XCTAssertTrue(made.succeeded, "\(made)")
        let seconds = recording.seconds
        let played = try Shell.run("paplay", ["-d", "speakers", wav.path])
        XCTAssertTrue(played.succeeded, "\(played)")
        try recording.waitForAudio(seconds: seconds + 3, timeout: 15)
        let sound = SoundDuration.measure(recording.stop())
        print("a 300 ms tone on speakers.monitor: \(sound)")
        XCTAssertEqual(sound.seconds, 0.3, accuracy: 0.05, "\(sound)")
    }
}

import Foundation
import XCTest

/// Checks of the harness itself, without the daemon: the session, the fixtures, the parsers,
/// the signal monitor, the recorder and the libdbus client. When these fail, the other
/// integration tests' failures say nothing about Aubade.
final class HarnessTests: AubadeTestCase {
    func testTheAubadeBinaryIsFound() throws {
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: try Daemon.binaryPath()))
    }

    func testFixturesAreTaggedMP3sAndBrokenFiles() throws {
        for file in [fixtures.alpha, fixtures.beta, fixtures.long] + fixtures.shortTracks {
            let head = try FileHandle(forReadingFrom: file).read(upToCount: 3)
            XCTAssertEqual(head, Data("ID3".utf8), "\(file.lastPathComponent) should start with an ID3v2 tag")
        }
        let untaggedHead = try FileHandle(forReadingFrom: fixtures.untagged).read(upToCount: 3)
        XCTAssertNotEqual(untaggedHead, Data("ID3".utf8), "c tone.mp3 must stay untagged")
        let files = try FileManager.default.contentsOfDirectory(atPath: fixtures.albumDirectory.path).sorted()
        XCTAssertEqual(files, ["10 z.mp3", "2 y.mp3"])
        XCTAssertEqual(try Data(contentsOf: fixtures.empty).count, 0)
        XCTAssertEqual(try Data(contentsOf: fixtures.random).count, 65_536)
        XCTAssertEqual(try FileHandle(forReadingFrom: fixtures.wavRenamed).read(upToCount: 4), Data("RIFF".utf8))
        XCTAssertFalse(FileManager.default.fileExists(atPath: fixtures.missing.path))
        XCTAssertTrue(fixtures.untagged.absoluteString.hasSuffix("/c%20tone.mp3"))
        let playlist = try String(contentsOf: fixtures.playlist, encoding: .utf8)
        XCTAssertTrue(playlist.contains("#EXTINF") && playlist.contains("../a.mp3"))
    }

    func testParserReadsDBusSendOutput() throws {
        let text = """
               variant       array [
                  dict entry(
                     string "mpris:trackid"
                     variant                object path "/org/aubade/Track/1"
                  )
                  dict entry(
                     string "mpris:length"
                     variant                int64 3000000
                  )
                  dict entry(
                     string "xesam:artist"
                     variant                array [
                           string "Ann"
                        ]
                  )
                  dict entry(
                     string "xesam:trackNumber"
                     variant                int32 1
                  )
                  dict entry(
                     string "Volume"
                     variant                double 0.4
                  )
               ]
            """
        let values = try DBusValueParser.parseAll(text)
        XCTAssertEqual(values.count, 1)
        XCTAssertEqual(values[0].unwrapped.signature, "a{sv}")
        let metadata = try XCTUnwrap(values[0].dictionary)
        XCTAssertEqual(metadata["mpris:trackid"], .objectPath("/org/aubade/Track/1"))
        XCTAssertEqual(metadata["mpris:length"]?.signature, "x")
        XCTAssertEqual(metadata["mpris:length"]?.int64, 3_000_000)
        XCTAssertEqual(metadata["xesam:artist"]?.signature, "as")
        XCTAssertEqual(metadata["xesam:artist"]?.strings, ["Ann"])
        XCTAssertEqual(metadata["xesam:trackNumber"], .integer("i", 1))
        XCTAssertEqual(metadata["Volume"], .double(0.4))
        XCTAssertThrowsError(try DBusValueParser.parseAll("   array [\n      string \"x\"\n"), "incomplete output")

        // Strings are printed raw: a quote at a line end inside one does not end it.
        let xml = "<!DOCTYPE node PUBLIC \"-//x//EN\"\n \"http://x/introspect.dtd\">\n<node name=\"a b\"/>\n"
        let introspection = try DBusValueParser.parseAll("   string \"\(xml)\"\n   int32 7\n")
        XCTAssertEqual(introspection, [.string(xml), .integer("i", 7)])
    }

    func testPactlSinkInputParsing() {
        let inputs = Pulse.parseSinkInputs("""
            Sink Input #12
            \tDriver: protocol-native.c
            \tSink: 1
            \tCorked: no
            \tMute: no
            \tVolume: front-left: 26214 /  40% / -23.88 dB,   front-right: 26214 /  40% / -23.88 dB
            \t        balance 0.00
            \tProperties:
            \t\tmedia.role = "music"
            \t\tapplication.name = "Aubade"
            \t\tapplication.process.id = "4242"
            """)
        XCTAssertEqual(inputs.count, 1)
        XCTAssertEqual(inputs.first?.index, 12)
        XCTAssertEqual(inputs.first?.sink, 1)
        XCTAssertEqual(inputs.first?.corked, false)
        XCTAssertEqual(inputs.first?.volumePercents, [40, 40])
        XCTAssertEqual(inputs.first?.properties["media.role"], "music")
        XCTAssertEqual(inputs.first?.processID, 4242)
    }

    func testSessionHasHeadphonesAsTheDefaultSink() throws {
        let result = try Shell.run("pactl", ["get-default-sink"])
        XCTAssertEqual(result.trimmedOutput, "headphones", "\(result)")
        XCTAssertEqual(Set(try Pulse.sinkNames().values), ["speakers", "headphones"])
    }

    func testRecorderTellsSoundFromSilence() throws {
        let silence = try Pulse.listen(seconds: 0.5)
        XCTAssertGreaterThan(silence.frames, 0, "parec recorded nothing")
        XCTAssertTrue(silence.isSilence, "\(silence)")

        let wav = TestRunDirectory.url.appendingPathComponent("harness-\(UUID().uuidString).wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        XCTAssertTrue(try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path,
                                            "synth", "5", "sine", "440", "vol", "0.5"]).succeeded)
        let player = try Subprocess("paplay", ["--property=media.role=music", wav.path])
        defer { player.stop() }
        var stream: SinkInput?
        try eventually("paplay's sink input") {
            stream = try Pulse.sinkInput(ofProcess: player.pid)
            return stream?.corked == false
        }
        XCTAssertEqual(stream?.properties["media.role"], "music")
        let sound = try Pulse.listen(seconds: 0.5)
        XCTAssertTrue(sound.isSound, "\(sound)")
    }

    func testSignalMonitorSeesSignals() throws {
        let signals = try SignalMonitor(sender: "org.freedesktop.DBus")
        defer { signals.stop() }
        let mark = signals.mark
        // A new connection makes the bus announce NameOwnerChanged.
        _ = try Bus.nameHasOwner("org.example.Nobody")
        let change = signals.waitForMessage(after: mark) { $0.member == "NameOwnerChanged" }
        XCTAssertEqual(change?.kind, "signal")
        XCTAssertEqual(change?.arguments.count, 3)
        XCTAssertEqual(change?.arguments.first?.signature, "s")
    }

    func testLibDBusClientCallsAndReceivesSignals() throws {
        let client = try LibDBusClient()
        try client.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged'")
        let serial = try client.send(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                     interface: "org.freedesktop.DBus", member: "GetId")
        var gotReply = false
        var gotSignal = false
        _ = try Bus.nameHasOwner("org.example.Nobody")  // another connection: NameOwnerChanged
        let deadline = Date(timeIntervalSinceNow: 5)
        while !(gotReply && gotSignal), Date() < deadline,
              let message = client.nextMessage(timeout: deadline.timeIntervalSinceNow) {
            if message.type == 2, message.replySerial == serial { gotReply = true }
            if message.type == LibDBusClient.Message.signal, message.member == "NameOwnerChanged" { gotSignal = true }
        }
        XCTAssertTrue(gotReply, "no reply to GetId")
        XCTAssertTrue(gotSignal, "no NameOwnerChanged")
    }

    /// No `Synchronization.Mutex` in the service or its tests: on Linux it is a priority-
    /// inheriting futex whose contended hand-over ThreadSanitizer cannot see, so every access
    /// under it can be reported as a race (CI failed on one in the test support's EventLog, and
    /// once in DebouncedSaver). Handoff's `LockedState` and `Lock` are the lock types.
    func testNoSynchronizationMutexAnywhere() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var offenders: [String] = []
        for folder in ["Sources", "Tests"] {
            let files = FileManager.default.enumerator(at: root.appendingPathComponent(folder), includingPropertiesForKeys: nil)
            while let file = files?.nextObject() as? URL {
                guard file.pathExtension == "swift" else { continue }
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
                for (number, line) in lines.enumerated() {
                    let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                    if code.contains(/\bMutex\s*[<(]/) {
                        offenders.append("\(file.path.dropFirst(root.path.count + 1)):\(number + 1)")
                    }
                }
            }
        }
        XCTAssertEqual(offenders, [], "use Handoff.LockedState (or Lock) instead")
    }

    /// A recording glitch is not a change of pitch. CI's PipeWire run recorded one 1.2 s into
    /// a 3 s 440 Hz tone (the tone cut, 10 ms of ringing around zero — sign flips every sample —,
    /// then the tone again); the first 8 crossings after it looked like 660 Hz, and the test of
    /// Metadata timing judged the change 1.76 s early.
    func testAGlitchInTheRecordingIsNotAChangeOfPitch() {
        let rate = 44_100.0
        var samples: [Int16] = []
        for frame in 0..<Int(4 * rate) {
            let time = Double(frame) / rate
            let value: Double
            if time >= 1.2 && time < 1.21 {
                value = frame % 2 == 0 ? 300 : -300  // the ringing of the glitch
            } else {
                value = 15_000 * sin(2 * .pi * (time < 3 ? 440 : 660) * time)
            }
            samples += [Int16(value), Int16(value)]  // stereo
        }
        let audio = ToneAnalysis(samples.withUnsafeBufferPointer { Data(buffer: $0) })
        let change = audio.pitchChange(in: 0..<audio.samples.count, fromHalfPeriod: rate / 880, toHalfPeriod: rate / 1320)
        XCTAssertEqual((change ?? 0) / rate, 3.0, accuracy: 0.01, "the change of pitch is at 3 s, not at the glitch")
    }
}

import Configuration
import PlayerCore
import XCTest

/// `output =` and the Snapcast keys: the snapserver's source line as in snapserver.conf.
final class OutputSettingsTests: XCTestCase {
    let environment = ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/home/ada/.config"]
    let file = "/home/ada/.config/aubade/aubade.conf"

    func parse(_ text: String) throws(ConfigurationError) -> Settings {
        try Settings.parse(text, file: file, environment: environment)
    }

    func testTheDefaultIsPulseAudioAndTheServersDefaultPipe() {
        let settings = Settings()
        XCTAssertEqual(settings.output, .pulseaudio)
        XCTAssertEqual(settings.snapcastSource, SnapcastSource(path: "/tmp/snapfifo", sampleRate: 48_000, channels: 2))
        XCTAssertEqual(settings.snapcastBuffer, 1000)
        XCTAssertEqual(settings.snapcastControl, SnapcastControlAddress(host: "127.0.0.1", port: 1705))
    }

    func testTheSnapserversControlPortIsAnAddressAndAPortOrNone() throws {
        XCTAssertEqual(try parse("snapcast-control = 192.168.1.9:1780").snapcastControl, SnapcastControlAddress(host: "192.168.1.9", port: 1780))
        XCTAssertEqual(try parse("snapcast-control = [::1]:1705").snapcastControl, SnapcastControlAddress(host: "::1", port: 1705))
        XCTAssertEqual(try parse("snapcast-control = snapserver.local:1705").snapcastControl?.host, "snapserver.local")
        XCTAssertNil(try parse("snapcast-control = none").snapcastControl)
        XCTAssertEqual(try parse("snapcast-control = [::1]:1705").snapcastControl?.text, "[::1]:1705")
        for text in ["snapcast-control = 127.0.0.1", "snapcast-control = 127.0.0.1:0", "snapcast-control = 127.0.0.1:70000",
                     "snapcast-control = :1705", "snapcast-control = [::1:1705", "snapcast-control = a b:1705",
                     "snapcast-control = host/x:1705"] {
            XCTAssertThrowsError(try parse(text), text) { error in
                XCTAssertTrue("\(error)".contains("HOST:PORT"), "\(error)")
            }
        }
        let changes = Settings().changes(to: try parse("snapcast-control = none"))
        XCTAssertEqual(changes.map(\.key), ["snapcast-control"])
        XCTAssertEqual(changes.first?.takesEffect, .restart)
    }

    func testTheSnapserverSourceLineIsReadAsItIs() throws {
        let settings = try parse("""
            output = snapcast
            snapcast-source = pipe:///run/snapserver/aubade?name=Aubade&sampleformat=44100:16:2&codec=flac&controlscript=/usr/bin/aubade-snapcast
            snapcast-buffer = 750
            """)
        XCTAssertEqual(settings.output, .snapcast)
        XCTAssertEqual(settings.snapcastSource, SnapcastSource(path: "/run/snapserver/aubade", sampleRate: 44_100, channels: 2))
        XCTAssertEqual(settings.snapcastBuffer, 750)
        XCTAssertEqual(try parse("snapcast-source = pipe:///tmp/mono?sampleformat=22050:16:1").snapcastSource,
                       SnapcastSource(path: "/tmp/mono", sampleRate: 22_050, channels: 1))
        // No sampleformat: snapserver's default, 48000:16:2.
        XCTAssertEqual(try parse("snapcast-source = pipe:///tmp/x").snapcastSource, SnapcastSource(path: "/tmp/x"))
    }

    func testWhatCannotBePlayedIsRefusedNamingTheKey() {
        let cases: [(String, String)] = [
            ("output = alsa", "pulseaudio or snapcast"),
            ("snapcast-source = tcp://127.0.0.1:4953?name=Aubade", "only pipe:// sources"),
            ("snapcast-source = /tmp/snapfifo", "pipe:///tmp/snapfifo"),
            ("snapcast-source = pipe://relative/fifo", "absolute path"),
            ("snapcast-source = pipe:///tmp/x?sampleformat=48000:24:2", "16-bit"),
            ("snapcast-source = pipe:///tmp/x?sampleformat=48000:16:6", "1 or 2 channels"),
            ("snapcast-source = pipe:///tmp/x?sampleformat=1000000:16:2", "8000…192000"),
            ("snapcast-source = pipe:///tmp/x?sampleformat=garbage", "sampleformat=RATE:16:CHANNELS"),
            ("snapcast-buffer = 5", "20 to 10000"),
            ("snapcast-buffer = lots", "20 to 10000"),
        ]
        for (text, expected) in cases {
            do {
                let settings = try parse(text)
                XCTFail("\(text) was accepted: \(settings)")
            } catch {
                XCTAssertEqual(error.kind, .badValue, text)
                XCTAssertTrue(error.description.contains(expected), "\(error.description) lacks \(expected)")
            }
        }
    }

    func testAChangedOutputTakesEffectAfterARestart() throws {
        let changes = Settings().changes(to: try parse("output = snapcast\nsnapcast-buffer = 500"))
        XCTAssertEqual(changes.map(\.key), ["output", "snapcast-buffer"])
        XCTAssertEqual(Set(changes.map(\.takesEffect)), [.restart])
    }

    func testTheDocumentationNamesTheKeys() {
        for key in ["output = pulseaudio|snapcast", "snapcast-source = pipe://", "snapcast-buffer = MILLISECONDS",
                    "snapcast-control = HOST:PORT|none"] {
            XCTAssertTrue(Settings.documentation.contains(key), key)
        }
    }
}

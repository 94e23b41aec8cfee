import DBusKit
import Foundation
import Testing
@testable import MPRIS
import PlayerCore
@testable import TestSupport

@Suite struct PlayerPropertiesTests {
    private func snapshot(_ status: PlaybackStatus = .playing, volume: Double = 1) -> PlayerSnapshot {
        PlayerSnapshot(status: status, loopStatus: .none, shuffle: false, volume: volume, current: nil,
                       canGoNext: false, canGoPrevious: false, canPlay: true, canPause: true, canSeek: true)
    }

    @Test func onlyWhatDiffersIsAnnounced() {
        let changes = PlayerProperties.changes(from: snapshot(.playing), to: snapshot(.paused, volume: 0.5))
        #expect(changes.map(\.0) == ["PlaybackStatus", "Volume"])
        #expect(changes.first?.1 == .string("Paused"))
    }

    @Test func positionIsNeverAnnounced() {
        #expect(!PlayerProperties.changes(from: snapshot(.stopped), to: snapshot(.playing)).contains { $0.0 == "Position" })
    }

    @Test func typesOfEveryProperty() {
        let expected = ["PlaybackStatus": "s", "LoopStatus": "s", "Rate": "d", "Shuffle": "b", "Metadata": "a{sv}",
                        "Volume": "d", "Position": "x", "MinimumRate": "d", "MaximumRate": "d", "CanGoNext": "b",
                        "CanGoPrevious": "b", "CanPlay": "b", "CanPause": "b", "CanSeek": "b", "CanControl": "b"]
        for name in PlayerProperties.names {
            #expect(PlayerProperties.value(named: name, of: snapshot(), position: 5)?.signature == expected[name], "\(name)")
        }
    }

    @Test(arguments: [
        ("LoopStatus", DBusValue.string("Track"), Event.setLoopStatus(.track)),
        ("Shuffle", .boolean(true), .setShuffle(true)),
        ("Volume", .double(0.4), .setVolume(0.4)),
        ("Rate", .double(0), .setRate(0)),
    ])
    func writesBecomeEvents(name: String, value: DBusValue, event: Event) throws {
        #expect(try PlayerProperties.event(setting: name, to: value) == event)
    }

    @Test(arguments: [
        ("LoopStatus", DBusValue.string("Bogus"), DBusError.invalidArgsName),
        ("LoopStatus", .int32(1), DBusError.invalidArgsName),
        ("Volume", .string("loud"), DBusError.invalidArgsName),
        ("Volume", .double(.nan), DBusError.invalidArgsName),
        ("Shuffle", .string("On"), DBusError.invalidArgsName),
        ("PlaybackStatus", .string("Playing"), DBusError.propertyReadOnlyName),
    ])
    func badWritesAreErrors(name: String, value: DBusValue, errorName: String) {
        #expect(throws: DBusError.self) { try PlayerProperties.event(setting: name, to: value) }
        do {
            _ = try PlayerProperties.event(setting: name, to: value)
        } catch {
            #expect(error.name == errorName)
        }
    }
}

@Suite struct IntrospectionTests {
    /// The daemon serves exactly the XML in dbus/ (run scripts/embed-introspection after editing it).
    private func dbusFile(_ name: String) throws -> String {
        let root = Repository.root
        return try String(contentsOf: root.appendingPathComponent("dbus/\(name)"), encoding: .utf8)
    }

    @Test func embeddedXMLIsTheFilesInDbusFolder() throws {
        #expect(IntrospectionXML.mediaPlayer2 + "\n" == (try dbusFile("org.mpris.MediaPlayer2.xml")))
        #expect(IntrospectionXML.audioSession + "\n" == (try dbusFile("org.aubade.AudioSession1.xml")))
        #expect(IntrospectionXML.queue + "\n" == (try dbusFile("org.aubade.Queue1.xml")))
    }

    /// The MPRIS object introspects as MPRIS's four interfaces and the standard ones, and
    /// nothing of Aubade's own (real clients such as playerctld abort on other interfaces there).
    @Test func theMPRISObjectHasOnlyMPRISAndTheStandardInterfaces() {
        for name in ["org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable", "org.mpris.MediaPlayer2\"",
                     "org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.TrackList", "org.mpris.MediaPlayer2.Playlists"] {
            #expect(IntrospectionXML.mediaPlayer2.ranges(of: "<interface name=\"\(name)").count == 1, "\(name)")
        }
        #expect(!IntrospectionXML.mediaPlayer2.contains("org.aubade"))
    }

    /// Aubade's own object introspects as its two interfaces and the standard ones, each once.
    @Test func aubadesObjectHasItsOwnInterfacesAndTheStandardOnes() {
        for name in ["org.freedesktop.DBus.Properties", "org.freedesktop.DBus.Introspectable",
                     "org.aubade.AudioSession1", "org.aubade.Queue1"] {
            #expect(IntrospectionXML.aubadePlayer.ranges(of: "<interface name=\"\(name)").count == 1, "\(name)")
        }
        #expect(!IntrospectionXML.aubadePlayer.contains("<interface name=\"org.mpris"))
        #expect(IntrospectionXML.aubadePlayer.hasSuffix("</node>\n"))
        #expect(IntrospectionXML.aubadePlayer.hasPrefix("<!DOCTYPE node"))
    }

    /// Every signal of Aubade's own interfaces comes from its own object; MPRIS's from MPRIS's.
    @Test func signalsComeFromTheObjectThatCarriesTheirInterface() {
        #expect(ServedObject.carrying("org.aubade.AudioSession1") == .aubade)
        #expect(ServedObject.carrying("org.aubade.Queue1") == .aubade)
        #expect(ServedObject.carrying("org.mpris.MediaPlayer2.Player") == .mpris)
        #expect(ServedObject.carrying("org.mpris.MediaPlayer2.TrackList") == .mpris)
        #expect(ServedObject.aubade.path == "/org/aubade/Player")
        #expect(!ServedObject.mpris.knownInterfaces.contains("org.aubade.AudioSession1"))
    }

    @Test func parentPathsLeadToThePlayer() {
        let player = ["/org/mpris/MediaPlayer2"]
        #expect(ObjectTree.childNodes(under: "/", toward: player) == ["org"])
        #expect(ObjectTree.childNodes(under: "/org/mpris", toward: player) == ["MediaPlayer2"])
        #expect(ObjectTree.childNodes(under: "/com", toward: player) == [])
        #expect(ObjectTree.childNodes(under: "/org/mpris/MediaPlayer2", toward: player) == [])
    }

    /// `aubade serve` serves its own object and the guard's beside the player: `/org` leads to all.
    @Test func parentPathsLeadToEveryObject() {
        let objects = ["/org/mpris/MediaPlayer2", "/org/aubade/Player", "/org/aubade/Guard"]
        #expect(ObjectTree.childNodes(under: "/", toward: objects) == ["org"])
        #expect(ObjectTree.childNodes(under: "/org", toward: objects) == ["aubade", "mpris"])
        #expect(ObjectTree.childNodes(under: "/org/aubade", toward: objects) == ["Guard", "Player"])
        #expect(ObjectTree.childNodes(under: "/org/aub", toward: objects) == [])
        let xml = IntrospectionXML.node(withChildren: ["aubade", "mpris"])
        #expect(xml.contains("  <node name=\"aubade\"/>\n  <node name=\"mpris\"/>\n</node>"))
    }
}

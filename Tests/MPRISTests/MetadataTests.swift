import DBusKit
import Testing
@testable import MPRIS
import PlayerCore

@Suite struct MetadataTests {
    let tagged: QueueEntry = {
        var track = Track(
            path: "/music/A b/ü.mp3", title: "Alpha", artists: ["Ann", "Bo"], album: "Demo",
            albumArtists: ["Various"], genres: ["Rock"], trackNumber: 3, discNumber: 1, date: "2009",
            length: 3_000_000, artURL: "file:///cache/covers/ab.jpg")
        track.moreTags = [TagValue(.artistSort, "Ann"), TagValue(.composer, "Bach"), TagValue(.composer, "Handel"),
                          TagValue(.comment, "Live"), TagValue(.musicBrainzTrackID, "9e3a")]
        return QueueEntry(id: EntryID(7), track: track)
    }()

    private func field(_ key: String, of entry: QueueEntry?) -> DBusValue? {
        Metadata.fields(for: entry).first { $0.0 == key }?.1
    }

    @Test func everyKeyHasTheTypeTheSpecNames() {
        let expected: [String: String] = [
            "mpris:trackid": "o", "mpris:length": "x", "xesam:title": "s", "xesam:url": "s",
            "xesam:artist": "as", "xesam:album": "s", "xesam:albumArtist": "as", "xesam:genre": "as",
            "xesam:trackNumber": "i", "xesam:discNumber": "i", "xesam:contentCreated": "s", "mpris:artUrl": "s",
            "xesam:composer": "as", "xesam:comment": "as",
        ]
        let fields = Metadata.fields(for: tagged)
        #expect(Set(fields.map(\.0)) == Set(expected.keys))
        for (key, value) in fields {
            #expect(value.signature == expected[key], "\(key)")
        }
        #expect(Metadata.value(for: tagged).signature == "a{sv}")
    }

    @Test func valuesComeFromTheTrack() {
        #expect(field("mpris:trackid", of: tagged) == .objectPath("/org/aubade/Track/7"))
        #expect(field("mpris:length", of: tagged) == .int64(3_000_000))
        #expect(field("xesam:artist", of: tagged) == .stringArray(["Ann", "Bo"]))
        #expect(field("xesam:trackNumber", of: tagged) == .int32(3))
        #expect(field("xesam:url", of: tagged) == .string("file:///music/A%20b/%C3%BC.mp3"))
        #expect(field("xesam:composer", of: tagged) == .stringArray(["Bach", "Handel"]))
        #expect(field("xesam:comment", of: tagged) == .stringArray(["Live"]))
    }

    @Test func untaggedFileIsTitledByItsName() {
        let entry = QueueEntry(id: EntryID(1), track: Track(path: "/m/c tone.mp3"))
        #expect(field("xesam:title", of: entry) == .string("c tone"))
        #expect(field("xesam:artist", of: entry) == nil)
        #expect(field("mpris:length", of: entry) == nil)
        #expect(field("xesam:composer", of: entry) == nil)
        #expect(field("xesam:comment", of: entry) == nil)
    }

    @Test func noTrackWhenTheQueueIsEmpty() {
        let fields = Metadata.fields(for: nil)
        #expect(fields.count == 1)
        #expect(fields.first?.1 == .objectPath("/org/mpris/MediaPlayer2/TrackList/NoTrack"))
    }

    @Test func trackPathsRoundTrip() {
        #expect(TrackPath.entry(from: TrackPath.path(for: EntryID(42))) == EntryID(42))
        #expect(TrackPath.entry(from: TrackPath.noTrack) == nil)
        #expect(TrackPath.entry(from: "/org/aubade/Track/x") == nil)
        #expect(TrackPath.entry(from: "/elsewhere/1") == nil)
    }
}

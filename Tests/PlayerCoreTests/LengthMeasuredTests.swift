import Testing
@testable import PlayerCore

/// An MP3 queued with an estimated length gets its exact one once it was measured.
@Suite struct LengthMeasuredTests {
    @Test func measuredLengthReplacesTheEstimate() {
        var estimated = track(0, length: 99 * second)
        estimated.lengthIsEstimate = true
        var player = Player(tracks: 0)
        player.send(.enqueue([estimated, track(1)], play: true), at: 0)
        let e = player.entries
        let effects = player.send(.trackLengthMeasured(e[0].id, 100 * second + 12), at: 1)
        #expect(player.entries[0].track.length == 100 * second + 12)
        #expect(!player.entries[0].track.lengthIsEstimate)
        // Metadata of the entry changed: MPRIS sends TrackMetadataChanged (and the current
        // entry's Metadata PropertiesChanged, from the snapshot).
        #expect(effects.trackListChanges == [.metadataChanged(e[0].id)])
        #expect(effects.actions.isEmpty, "playback goes on untouched")
        #expect(player.entries[1].track.length == 100 * second)
    }

    @Test func sameExactLengthOrAGoneEntryChangesNothing() {
        var player = Player(tracks: 2, start: .playing)
        let e = player.entries
        #expect(player.send(.trackLengthMeasured(e[0].id, 100 * second), at: 1).isEmpty)
        player.send(.removeTrack(e[1].id), at: 2)
        #expect(player.send(.trackLengthMeasured(e[1].id, 5 * second), at: 3).isEmpty)
        #expect(player.send(.trackLengthMeasured(e[0].id, -5), at: 3).isEmpty)
    }
}

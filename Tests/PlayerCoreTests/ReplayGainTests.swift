@testable import PlayerCore
import Testing

/// ReplayGain: which gain a track gets, from its tags, the mode, the preamp and the queue.
@Suite struct ReplayGainTests {
    static let tagged = ReplayGainTags(trackGain: -6, trackPeak: 0.5, albumGain: -3, albumPeak: 0.9)

    static func close(_ a: Double, _ b: Double, within tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

    @Test func decibelsMatchTheKnownValues() {
        #expect(Self.close(Decibels.scale(of: 0), 1))
        #expect(Self.close(Decibels.scale(of: -6.020_599_913_279_624), 0.5, within: 1e-12))
        #expect(Self.close(Decibels.scale(of: 20), 10, within: 1e-12))
        #expect(Self.close(Decibels.of(scale: 0.1), -20, within: 1e-12))
        #expect(Self.close(Decibels.of(scale: 2), 6.020_599_913_279_624, within: 1e-12))
        #expect(Decibels.of(scale: 0) == -.infinity)
        #expect(Decibels.scale(of: -.infinity) == 0)
        #expect(Decibels.scale(of: .nan).isNaN)
    }

    @Test func offAndUntaggedLeaveTheSamplesAlone() {
        #expect(ReplayGainDecision.decide(Self.tagged, mode: .off, albumInOrder: true) == .unity)
        #expect(ReplayGainDecision.decide(nil, mode: .track, albumInOrder: false) == .unity)
        #expect(ReplayGainDecision.decide(ReplayGainTags(), mode: .album, albumInOrder: true) == .unity)
    }

    @Test func trackAndAlbumModesPickTheirTag() {
        let track = ReplayGainDecision.decide(Self.tagged, mode: .track, albumInOrder: true)
        #expect(track.source == .track && Self.close(track.appliedGain, -6) && !track.limitedByPeak)
        #expect(Self.close(track.scale, Decibels.scale(of: -6)))
        let album = ReplayGainDecision.decide(Self.tagged, mode: .album, albumInOrder: false)
        #expect(album.source == .album && Self.close(album.appliedGain, -3))
    }

    @Test func autoUsesTheAlbumGainOnlyForAnAlbumInOrder() {
        #expect(ReplayGainDecision.decide(Self.tagged, mode: .auto, albumInOrder: true).source == .album)
        #expect(ReplayGainDecision.decide(Self.tagged, mode: .auto, albumInOrder: false).source == .track)
    }

    @Test func aMissingGainFallsBackToTheOther() {
        let trackOnly = ReplayGainTags(trackGain: -4, trackPeak: nil)
        #expect(ReplayGainDecision.decide(trackOnly, mode: .album, albumInOrder: true).source == .track)
        let albumOnly = ReplayGainTags(albumGain: -2, albumPeak: nil)
        #expect(ReplayGainDecision.decide(albumOnly, mode: .track, albumInOrder: false).source == .album)
    }

    @Test func theGainIsLoweredSoThePeakDoesNotClip() {
        // +8 dB on a peak of 0.8 would reach 2.0: the gain stops at 20·log10(1/0.8) ≈ 1.94 dB.
        let loud = ReplayGainTags(trackGain: 8, trackPeak: 0.8)
        let decision = ReplayGainDecision.decide(loud, mode: .track, albumInOrder: false)
        #expect(decision.limitedByPeak)
        #expect(Self.close(decision.appliedGain, Decibels.of(scale: 1 / 0.8), within: 1e-9))
        #expect(Self.close(decision.scale * 0.8, 1, within: 1e-9))
        // Without a peak nothing is known: the gain applies as tagged (the output saturates).
        #expect(!ReplayGainDecision.decide(ReplayGainTags(trackGain: 8), mode: .track, albumInOrder: false).limitedByPeak)
    }

    @Test func thePreampIsAddedAndBounded() {
        let tags = ReplayGainTags(trackGain: -6, trackPeak: 0.01)
        #expect(Self.close(ReplayGainDecision.decide(tags, mode: .track, albumInOrder: false, preamp: 3).appliedGain, -3))
        #expect(Self.close(ReplayGainDecision.decide(tags, mode: .track, albumInOrder: false, preamp: .nan).appliedGain, -6))
        #expect(Self.close(ReplayGainDecision.decide(tags, mode: .track, albumInOrder: false, preamp: 1e300).appliedGain, 24))
    }

    @Test func tagTextIsParsedAndJunkRefused() {
        #expect(ReplayGainTags.gain(parsing: "-6.50 dB") == -6.5)
        #expect(ReplayGainTags.gain(parsing: " +2.1 dB ") == 2.1)
        #expect(ReplayGainTags.gain(parsing: "-3.2") == -3.2)
        #expect(ReplayGainTags.gain(parsing: "-9999 dB") == nil)
        #expect(ReplayGainTags.gain(parsing: "nan dB") == nil)
        #expect(ReplayGainTags.gain(parsing: "loud") == nil)
        #expect(ReplayGainTags.gain(parsing: String(repeating: "1", count: 10_000)) == nil)
        #expect(ReplayGainTags.peak(parsing: "0.988312") == 0.988312)
        #expect(ReplayGainTags.peak(parsing: "0") == nil)
        #expect(ReplayGainTags.peak(parsing: "-1") == nil)
    }

    static func albumTrack(_ n: Int, album: String?) -> Track {
        var track = track(n)
        track.album = album
        track.replayGain = tagged
        return track
    }

    @Test func autoFollowsTheQueue() {
        var player = Player()
        player.state.policy.replayGain = .auto
        player.send(.enqueue([Self.albumTrack(1, album: "Blue"), Self.albumTrack(2, album: "Blue"),
                              Self.albumTrack(3, album: "Other")], play: true), at: 0)
        // Two of one album next to each other: an album played in order.
        #expect(player.state.replayGainDecision(for: player.entry(0)).source == .album)
        #expect(player.state.replayGainDecision(for: player.entry(1)).source == .album)
        // The lone track of another album: its own gain.
        #expect(player.state.replayGainDecision(for: player.entry(2)).source == .track)
        #expect(player.snapshot.replayGain.source == .album)
        // Shuffled: track gain for every one.
        player.send(.setShuffle(true), at: 1)
        #expect(player.state.replayGainDecision(for: player.entry(0)).source == .track)
    }

    @Test func aStationIsNeverLeveled() {
        var player = Player()
        player.state.policy.replayGain = .track
        var station = Track(stream: try! StreamURL(validating: "http://radio.example/live"))
        station.replayGain = Self.tagged
        player.send(.enqueue([station], play: true), at: 0)
        #expect(player.state.replayGainDecision(for: player.entry(0)) == .unity)
    }
}

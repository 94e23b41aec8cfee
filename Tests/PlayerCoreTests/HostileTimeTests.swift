@testable import PlayerCore
import Testing

/// Times and offsets from outside (a bus client, a state file, a tag) can be anything an
/// Int64 holds. Before issue 10, `Seek(Int64.max)` trapped in `position + offset` and killed
/// the daemon; a state file with a huge position did so at every start.
@Suite struct HostileTimeTests {
    static let extremes: [Microseconds] = [.max, .max - 1, .min, .min + 1, -1, 0]

    @Test(arguments: extremes)
    func seekByAnyOffsetIsSafe(_ offset: Microseconds) {
        var player = Player(tracks: 3)
        player.send(.play, at: 0)
        player.now = at(10)
        _ = player.send(.seek(by: offset))
        if offset > seconds(90) {
            // Past the end acts like Next.
            #expect(player.currentIndex == 1)
        } else {
            #expect(player.currentIndex == 0)
            #expect(player.position >= 0)
        }
    }

    @Test(arguments: extremes)
    func seekWithUnknownLengthIsSafe(_ offset: Microseconds) {
        var player = Player(tracks: 2, length: nil)
        player.send(.play, at: 0)
        player.now = at(10)
        _ = player.send(.seek(by: offset))
        #expect(player.currentIndex == 0)
        #expect(player.position >= 0)
        // The clock then runs on without overflowing either.
        #expect(player.position(at: 20) >= player.position)
    }

    @Test(arguments: extremes)
    func setPositionToAnythingIsSafe(_ position: Microseconds) {
        var player = Player(tracks: 2, length: nil)
        player.send(.play, at: 0)
        player.now = at(5)
        let id = player.entry(0).id
        _ = player.send(.setPosition(id, position))
        #expect(player.position(at: 1_000) >= 0)
    }

    @Test(arguments: [Microseconds.max, .min, 9_000_000_000_000_000_000])
    func restoringAHugePositionIsSafe(_ position: Microseconds) {
        for length: Microseconds? in [nil, 100 * second] {
            let memento = PlayerMemento(tracks: tracks(2, length: length), currentIndex: 0, position: position,
                                        volume: 1, loopStatus: .none, shuffle: false, playOrder: [0, 1])
            var player = Player()
            _ = player.send(.restore(memento), at: 1)
            #expect(player.position >= 0)
            if let length { #expect(player.position <= length) }
            _ = player.send(.play, at: 2)
            #expect(player.position(at: 1_000_000) >= 0)
        }
    }

    @Test func saturatingArithmetic() {
        #expect(Int64.max.saturatingAdding(1) == .max)
        #expect(Int64.min.saturatingAdding(-1) == .min)
        #expect(Int64.min.saturatingSubtracting(1) == .min)
        #expect(Int64.max.saturatingSubtracting(-1) == .max)
        #expect(Int64(5).saturatingAdding(-7) == -2)
        #expect(Microseconds.microseconds(saturatingSeconds: .nan) == 0)
        #expect(Microseconds.microseconds(saturatingSeconds: .infinity) == .max)
        #expect(Microseconds.microseconds(saturatingSeconds: -.infinity) == .min)
        #expect(Microseconds.microseconds(saturatingSeconds: 1e300) == .max)
        #expect(Microseconds.microseconds(saturatingSeconds: 1.5) == 1_500_000)
        #expect(Instant(microseconds: .max) + 5 == Instant(microseconds: .max))
        #expect(Instant(microseconds: .min) - Instant(microseconds: .max) == .min)
    }
}

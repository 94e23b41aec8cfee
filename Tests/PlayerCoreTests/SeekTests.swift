@testable import PlayerCore
import Testing

/// Seek (relative) and SetPosition (absolute), with the MPRIS clamping rules.
@Suite struct SeekTests {
    struct SeekCase: Sendable, CustomTestStringConvertible {
        var start: Start
        /// Position when seeking (s), the offset (s), and the expected target (s).
        var offset: Double
        var target: Double
        var testDescription: String { "\(start) seek \(offset) s → \(target) s" }
    }

    /// All seeks happen at 10 s into the first of three 100 s tracks (paused: paused at 10 s).
    static let withinTrack: [SeekCase] = Start.allCases.filter { $0 != .stopped }.flatMap { start in [
        SeekCase(start: start, offset: 20, target: 30),
        SeekCase(start: start, offset: -4, target: 6),
        SeekCase(start: start, offset: -10, target: 0),
        SeekCase(start: start, offset: -50, target: 0),        // before 0 clamps to 0
        SeekCase(start: start, offset: 90, target: 100),       // exactly the end is still inside
        SeekCase(start: start, offset: 0, target: 10),
    ] }

    static func player(_ start: Start, tracks count: Int = 3, loop: LoopStatus = .none) -> Player {
        var player = Player(tracks: count, loop: loop)
        player.send(.play, at: 0)
        if start == .paused { player.send(.pause, at: 10) }
        player.now = at(10)
        return player
    }

    @Test(arguments: withinTrack)
    func seekWithinTheTrack(_ c: SeekCase) {
        var player = Self.player(c.start)
        let effects = player.send(.seek(by: seconds(c.offset)))
        let entry = player.entry(0)
        #expect(effects == [.output(.play(entry, from: seconds(c.target), playing: c.start == .playing)),
                            .seeked(seconds(c.target))])
        #expect(player.status == (c.start == .playing ? .playing : .paused))
        #expect(player.position == seconds(c.target))
        #expect(player.currentID == entry.id)
    }

    struct PastEndCase: Sendable, CustomTestStringConvertible {
        var start: Start
        var loop: LoopStatus
        /// Which of the three tracks is current.
        var from: Int
        /// The track that becomes current, or nil when the queue ends (stopped, first selected).
        var to: Int?
        var testDescription: String { "\(start) \(loop.rawValue) past the end of \(from) → \(to.map(String.init) ?? "stop")" }
    }

    static let pastEnd: [PastEndCase] = [
        PastEndCase(start: .playing, loop: .none, from: 0, to: 1),
        PastEndCase(start: .paused, loop: .none, from: 0, to: 1),
        PastEndCase(start: .playing, loop: .none, from: 2, to: nil),
        PastEndCase(start: .paused, loop: .none, from: 2, to: nil),
        PastEndCase(start: .playing, loop: .playlist, from: 2, to: 0),
        PastEndCase(start: .playing, loop: .track, from: 1, to: 1),
    ]

    @Test(arguments: pastEnd)
    func seekPastTheEndActsLikeTheTrackEnding(_ c: PastEndCase) {
        var player = Player(tracks: 3, loop: c.loop)
        for _ in 0..<c.from { player.send(.next) }
        player.send(.play, at: 0)
        if c.start == .paused { player.send(.pause, at: 10) }
        let effects = player.send(.seek(by: seconds(95)), at: 10)
        if let to = c.to {
            // The same entry starting over (LoopStatus Track) is a jump under the same track id.
            let seeked: [Effect] = to == c.from ? [.seeked(0)] : []
            #expect(effects == [.output(.play(player.entry(to), from: 0, playing: c.start == .playing))] + seeked)
            #expect(player.currentIndex == to)
            #expect(player.status == (c.start == .playing ? .playing : .paused))
        } else {
            #expect(effects.actions == [.output(.stop)])
            #expect(player.status == .stopped)
            #expect(player.currentIndex == 0, "the first track is selected for the next Play")
        }
        #expect(player.position == 0)
    }

    @Test func seekWithoutATrackDoesNothing() {
        var player = Player()
        #expect(player.send(.seek(by: seconds(10))).isEmpty)
    }

    // MARK: SetPosition

    enum Target: String, Sendable { case current, other, unknown }

    struct SetCase: Sendable, CustomTestStringConvertible {
        var target: Target
        var position: Double
        var valid: Bool
        var testDescription: String { "\(target.rawValue) at \(position) s → \(valid ? "moves" : "ignored")" }
    }

    static let setCases: [SetCase] = [
        SetCase(target: .current, position: 42, valid: true),
        SetCase(target: .current, position: 0, valid: true),
        SetCase(target: .current, position: 100, valid: true),       // the length itself is allowed
        SetCase(target: .current, position: -0.000001, valid: false),
        SetCase(target: .current, position: -5, valid: false),
        SetCase(target: .current, position: 100.000001, valid: false),
        SetCase(target: .current, position: 500, valid: false),
        SetCase(target: .other, position: 42, valid: false),
        SetCase(target: .unknown, position: 42, valid: false),
    ]

    @Test(arguments: setCases, [Start.playing, .paused])
    func setPosition(_ c: SetCase, start: Start) {
        var player = Self.player(start)
        let before = player.state
        let id = switch c.target {
        case .current: player.ids[0]
        case .other: player.ids[1]
        case .unknown: EntryID(999)
        }
        let effects = player.send(.setPosition(id, seconds(c.position)))
        if c.valid {
            #expect(effects == [.output(.play(player.entry(0), from: seconds(c.position), playing: start == .playing)),
                                .seeked(seconds(c.position))])
            #expect(player.position == seconds(c.position))
            #expect(player.status == before.status)
        } else {
            #expect(effects.isEmpty)
            #expect(player.state == before, "an ignored SetPosition changes nothing")
        }
    }

    @Test func setPositionWhileStoppedLoadsThePositionForPlay() {
        var player = Player(tracks: 2)
        let effects = player.send(.setPosition(player.ids[0], seconds(30)), at: 1)
        #expect(effects == [.output(.play(player.entry(0), from: seconds(30), playing: false)), .seeked(seconds(30))])
        #expect(player.send(.play, at: 2) == [.output(.resume)])
        #expect(player.position(at: 12) == seconds(40))
    }

    @Test func setPositionWithUnknownLengthOnlyChecksTheSign() {
        var player = Player(tracks: 1, length: nil, start: .playing)
        #expect(player.send(.setPosition(player.ids[0], seconds(5_000)), at: 1).count == 2)
        #expect(player.send(.setPosition(player.ids[0], -1), at: 2).isEmpty)
    }
}

/// Every jump of the position under the same track id is announced with Seeked: phones (KDE
/// Connect, GSConnect) and BlueZ extrapolate the position and learn of a jump only from it.
@Suite struct UnannouncedJumpTests {
    @Test func goToTheCurrentTrackStartsItOverWithSeeked() {
        var player = Player(tracks: 3, start: .playing)
        player.now = at(30)
        let effects = player.send(.goTo(player.ids[0]))
        #expect(effects.contains(.seeked(0)))
        #expect(player.position == 0)
    }

    @Test func aOneTrackQueueWrappingOntoItselfIsASeek() {
        var player = Player(tracks: 1, loop: .playlist, start: .playing)
        player.now = at(30)
        #expect(player.send(.next).contains(.seeked(0)))
        player.now = at(40)
        #expect(player.send(.previous).contains(.seeked(0)))
    }

    @Test func pausePlayAndAnotherTrackAreNoJumps() {
        var player = Player(tracks: 3, start: .playing)
        player.now = at(30)
        #expect(!player.send(.pause).contains { if case .seeked = $0 { true } else { false } })
        player.now = at(35)
        #expect(!player.send(.play).contains { if case .seeked = $0 { true } else { false } })
        player.now = at(40)
        #expect(!player.send(.next).contains { if case .seeked = $0 { true } else { false } }, "a new track id tells them")
        #expect(!player.send(.stop).contains { if case .seeked = $0 { true } else { false } }, "Stopped tells them")
    }

    @Test func aSeekIsAnnouncedOnce() {
        var player = Player(tracks: 3, start: .playing)
        player.now = at(10)
        #expect(player.send(.seek(by: seconds(5))).filter { if case .seeked = $0 { true } else { false } } == [.seeked(seconds(15))])
    }
}

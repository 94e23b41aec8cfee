import FrontEnd
import MPDProtocol
import PlayerCore
import Testing
@testable import MPDServer

/// The player as MPD clients see it: mpd's current song, which Aubade's player does not have
/// the same way (it picks one as soon as its queue is not empty; mpd has none from a `clear`
/// until something plays). Found by the side-by-side test against mpd 0.23
/// (IntegrationTests.MPDSideBySideTests): `status` showed a `song:` mpd did not, `+1`
/// positions were taken where mpd answers "No current song", and `play` began at the first
/// song added instead of the top of the queue.
@Suite struct PlayerMirrorTests {
    /// A real `PlayerState` whose every turn the mirror takes in, as the daemon hands them over.
    struct Driver {
        var player = PlayerState()
        var mirror: PlayerMirror
        var now = Instant(microseconds: 0)

        init() {
            mirror = PlayerMirror(snapshot: player.snapshot, queue: player.queue, position: 0, at: now)
        }

        @discardableResult
        mutating func send(_ event: Event) -> IdleSubsystems {
            now = Instant(microseconds: now.microseconds + 1_000)
            let before = player.snapshot
            let effects = player.handle(event, at: now)
            let turn = PlayerTurn(event: event, before: before, after: player.snapshot, effects: effects,
                                  queue: player.queue, position: player.position(at: now))
            return mirror.apply(turn, at: now)
        }

        mutating func add(_ count: Int, at place: QueuePlace = .atEnd) -> IdleSubsystems {
            let tracks = (0..<count).map { Track(path: FilePath("/music/\($0).mp3")!, title: "\($0)", length: 100_000_000) }
            return send(.addTracks(tracks, at: place, makeCurrent: false))
        }

        func id(at position: Int) -> EntryID { mirror.queue.entries[position].id }
    }

    @Test func songsAddedToAnEmptyQueueMakeNoCurrentSong() {
        var driver = Driver()
        let changes = driver.add(3)
        #expect(driver.player.snapshot.current != nil, "the player picks one (MPRIS shows it)")
        #expect(driver.mirror.current == nil)
        #expect(driver.mirror.currentPosition == nil)
        #expect(driver.mirror.nextEntry == nil)
        #expect(changes == [.playlist], "no player change for MPD clients: nothing plays, no song is current")
    }

    @Test func playingMakesTheSongCurrentAndStoppingKeepsIt() {
        var driver = Driver()
        driver.add(3)
        let second = driver.id(at: 1)
        #expect(driver.send(.playEntry(second)).contains(.player))
        #expect(driver.mirror.current?.id == second)
        #expect(driver.mirror.currentPosition == 1)
        #expect(driver.mirror.nextEntry?.id == driver.id(at: 2))
        driver.send(.stop)
        #expect(driver.mirror.current?.id == second, "mpd keeps the song it stopped at")
    }

    @Test func removingTheStoppedCurrentSongLeavesNone() {
        var driver = Driver()
        driver.add(3)
        let first = driver.id(at: 0)
        driver.send(.playEntry(first))
        driver.send(.stop)
        let changes = driver.send(.removeEntries([first]))
        #expect(driver.player.snapshot.current != nil, "the player picks another")
        #expect(driver.mirror.current == nil)
        #expect(changes.contains(.player))
    }

    @Test func clearingTheQueueLeavesNoneAndAddingAfterDoesNotMakeOne() {
        var driver = Driver()
        driver.add(2)
        driver.send(.playEntry(driver.id(at: 0)))
        driver.send(.replaceQueue([], play: false))
        #expect(driver.mirror.current == nil)
        driver.add(2)
        #expect(driver.mirror.current == nil)
    }

    @Test func randomSwitchedOnWhileStoppedLeavesNone() {
        var driver = Driver()
        driver.add(3)
        driver.send(.playEntry(driver.id(at: 1)))
        driver.send(.stop)
        driver.send(.setShuffle(true))
        #expect(driver.mirror.current == nil)
        // Paused, the song stays current.
        driver.send(.setShuffle(false))
        driver.send(.playEntry(driver.id(at: 1)))
        driver.send(.pause)
        driver.send(.setShuffle(true))
        #expect(driver.mirror.current?.id == driver.id(at: 1))
    }

    @Test func whilePlayingTheCurrentSongFollowsThePlayer() {
        var driver = Driver()
        driver.add(3)
        driver.send(.playEntry(driver.id(at: 0)))
        driver.send(.next)
        #expect(driver.mirror.current?.id == driver.id(at: 1))
        // Songs added at the top move it, and it stays current.
        driver.add(2, at: .position(0))
        #expect(driver.mirror.currentPosition == 3)
    }

    /// mpd gives a song whose priority changed a new version (`plchanges` lists it, `Prio:`
    /// changed); Aubade's player changes no revision for it. A cover found for MPRIS changes
    /// nothing an MPD client sees, and must not make the song "changed" (it did: clients
    /// fetched the current song again after every cover lookup).
    @Test func aNewPriorityChangesTheQueueAndACoverDoesNot() {
        var driver = Driver()
        driver.add(3)
        let version = driver.mirror.versions.version
        let second = driver.id(at: 1)
        #expect(driver.send(.setPriority([second], 5)) == [.playlist])
        #expect(driver.mirror.versions.version == version + 1)
        #expect(driver.mirror.versions.hasChanged(second, since: version))
        #expect(!driver.mirror.versions.hasChanged(driver.id(at: 0), since: version))
        #expect(driver.mirror.queue.entry(second)?.priority == 5)
        #expect(driver.send(.setPriority([second], 5)).isEmpty, "the same priority again is no change")
        let now = driver.mirror.versions.version
        #expect(driver.send(.artworkFound(driver.id(at: 0), url: "file:///covers/a.jpg")).isEmpty)
        #expect(driver.mirror.versions.version == now)
    }
}

/// A front-end attached to a player whose queue is already full (restored, or given on the
/// command line) sees that queue at once, not after its next change.
@Suite struct PlayerMirrorStartTests {
    @Test func theMirrorStartsFromThePlayersQueue() {
        var player = PlayerState()
        let tracks = (0..<3).map { Track(path: FilePath("/music/\($0).mp3")!, length: 100_000_000) }
        _ = player.handle(.enqueue(tracks, play: false), at: Instant(microseconds: 0))
        let mirror = PlayerMirror(snapshot: player.snapshot, queue: player.queue, position: 0, at: Instant(microseconds: 0))
        #expect(mirror.queue.count == 3)
        #expect(mirror.versions.version > 1, "the queue's entries count as changed once")
    }
}

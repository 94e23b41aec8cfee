import Dispatch
import Foundation
import Handoff
import PlayerCore
import Testing
@testable import Persistence
@testable import TestSupport

/// Backing off from failing saves, the final save's ordering, and who owns the state folder.
@Suite struct SaveBackoffTests {
    private let full = PersistenceError(path: "/s/.state.json.tmp-1-a", call: "write", reason: "No space left on device", code: ENOSPC)

    @Test func delaysDoubleUpToAMinuteAndOnlyNewFailuresAreLogged() {
        var backoff = SaveBackoff()
        #expect(backoff.mayAttempt(at: 0))
        var delays: [Double] = []
        var logged: [Bool] = []
        var now = 0.0
        for _ in 0..<9 {
            // The same failure, with another temporary file name each time.
            var error = full
            error.path = "/s/.state.json.tmp-1-\(delays.count)"
            logged.append(backoff.failed(error, at: now))
            delays.append(backoff.currentDelay)
            #expect(!backoff.mayAttempt(at: now + backoff.currentDelay - 0.001))
            now += backoff.currentDelay
            #expect(backoff.mayAttempt(at: now))
        }
        #expect(delays == [1, 2, 4, 8, 16, 32, 60, 60, 60])
        #expect(logged == [true] + Array(repeating: false, count: 8))
        // Another failure is logged; the delay goes on growing.
        let readOnly = PersistenceError(path: "/s", call: "open", reason: "Read-only file system", code: EROFS)
        let loggedAgain = backoff.failed(readOnly, at: now)
        #expect(loggedAgain)
        #expect(backoff.currentDelay == 60)
        let ended = backoff.succeeded()
        #expect(ended == 10)
        #expect(!backoff.isFailing && backoff.mayAttempt(at: now))
        let nothingEnded = backoff.succeeded()
        #expect(nothingEnded == 0)
        let loggedAfterRecovery = backoff.failed(full, at: now)
        #expect(loggedAfterRecovery)
        #expect(backoff.currentDelay == 1)
    }
}

@Suite struct StateWriterTests {
    final class Reports: Sendable {
        let items = LockedState<[StateWriter.Report]>([])
        var all: [StateWriter.Report] { items.withLock { $0 } }
        func add(_ report: StateWriter.Report) { items.withLock { $0.append(report) } }
    }

    /// A state folder below a regular file: every save fails ("mkdir": not a directory) until
    /// `unblock` removes the file.
    struct BlockedFolder {
        let root: String
        var blocker: String { root + "/blocker" }
        var stateDirectory: String { blocker + "/aubade" }
        init() throws {
            root = try Fixtures.makeDirectory()
            try Fixtures.write(Array("not a folder".utf8), to: blocker)
        }
        func unblock() throws { try FileManager.default.removeItem(atPath: blocker) }
    }

    /// A writer whose backoff runs in virtual time (`clock`); with the real default delays.
    private func writer(_ directory: String, reports: Reports, clock: VirtualScheduler = VirtualScheduler(),
                        firstDelay: Double = SaveBackoff.firstDelay) -> StateWriter {
        StateWriter(store: StateStore(directory: directory), queue: DispatchQueue(label: "test.writer"),
                    backoff: SaveBackoff(firstDelay: firstDelay), scheduler: clock) { reports.add($0) }
    }

    /// Virtual time: the backoff's 1 s, 2 s, 4 s … are not waited for.
    @Test func aFailingSaveIsReportedOnceRetriedWithBackoffAndRecovers() throws {
        let folder = try BlockedFolder()
        let paths = try makeFiles(["a.mp3"], in: folder.root)
        let reports = Reports()
        let clock = VirtualScheduler()
        let writer = writer(folder.stateDirectory, reports: reports, clock: clock)
        writer.save(memento(paths, current: 0, position: 1_000_000))
        // The position timer goes on asking every 10 ms meanwhile (5 s of it).
        for tick in 0..<500 {
            writer.savePosition(currentIndex: 0, path: paths[0], position: Int64(tick) * 10_000)
            writer.drain()
            clock.advance(by: 0.01)
            writer.drain()
        }
        #expect(writer.isFailing)
        guard case .failing(let error, let retryIn)? = reports.all.first else { Issue.record("\(reports.all)"); return }
        #expect(error.call == "mkdir" && retryIn == SaveBackoff.firstDelay)
        #expect(reports.all.count == 1, "the same failure is said once: \(reports.all)")

        // Space returns: the waiting save goes through by itself, nothing else asked, when its
        // backoff (at most a minute) is over.
        try folder.unblock()
        clock.advance(by: SaveBackoff.maximumDelay)
        writer.drain()
        #expect(!writer.isFailing)
        guard case .recovered(let failures)? = reports.all.last else { Issue.record("\(reports.all)"); return }
        #expect(failures >= 2)
        #expect(reports.all.count == 2)
        // The state, then the newest position, were both written.
        guard case .restored(let restored, _) = StateStore(directory: folder.stateDirectory).load() else {
            Issue.record("nothing saved"); return
        }
        #expect(restored.position == 4_990_000)
    }

    @Test func aDifferentFailureIsReportedAgain() throws {
        let folder = try BlockedFolder()
        let paths = try makeFiles(["a.mp3"], in: folder.root)
        let reports = Reports()
        let clock = VirtualScheduler()
        let writer = writer(folder.stateDirectory, reports: reports, clock: clock)
        writer.save(memento(paths, current: 0))
        writer.drain()
        // Now the folder exists, but state.json is a non-empty folder: the rename fails instead.
        try folder.unblock()
        try FileManager.default.createDirectory(atPath: folder.stateDirectory + "/state.json/x", withIntermediateDirectories: true)
        clock.advance(by: SaveBackoff.firstDelay)
        writer.drain()
        #expect(reports.all.count == 2)
        let calls = reports.all.compactMap { report -> String? in
            if case .failing(let error, _) = report { return error.call } else { return nil }
        }
        #expect(calls == ["mkdir", "rename"])
    }

    /// The ordering bug of the daemon's final flush: a debounced save queued before the final
    /// save, or asked for after it (its timer already running), overwrote the final state.
    @Test func nothingAskedAroundTheFinalSaveOverwritesIt() throws {
        let dir = try Fixtures.makeDirectory()
        let paths = try makeFiles(["a.mp3", "b.mp3"], in: dir)
        let reports = Reports()
        let writer = writer(dir + "/state", reports: reports)
        let final = memento(paths, current: 1, position: 42_000_000)
        writer.save(memento(paths, current: 0, position: 1))        // queued before
        #expect(writer.finish(final))
        writer.save(memento(paths, current: 0, position: 0))        // the stale timer, after
        writer.savePosition(currentIndex: 0, path: paths[0], position: 0)
        writer.drain()
        #expect(StateStore(directory: dir + "/state").load() == .restored(final, dropped: []))
        #expect(reports.all.isEmpty)
    }

    @Test func theFinalSaveIgnoresTheBackoffAndSaysWhenItFails() throws {
        let folder = try BlockedFolder()
        let paths = try makeFiles(["a.mp3"], in: folder.root)
        let reports = Reports()
        let writer = writer(folder.stateDirectory, reports: reports, firstDelay: 3_600)
        writer.save(memento(paths, current: 0))
        writer.drain()
        #expect(!writer.finish(memento(paths, current: 0)))
        guard case .finalSaveFailed(let error)? = reports.all.last else { Issue.record("\(reports.all)"); return }
        #expect(error.call == "mkdir")

        // Within the hour of backoff, the final save still tries, and succeeds.
        let other = StateWriter(store: StateStore(directory: folder.stateDirectory), backoff: SaveBackoff(firstDelay: 3_600)) { reports.add($0) }
        other.save(memento(paths, current: 0))
        other.drain()
        try folder.unblock()
        #expect(other.finish(memento(paths, current: 0, position: 7)))
        guard case .restored(let restored, _) = StateStore(directory: folder.stateDirectory).load() else {
            Issue.record("not saved"); return
        }
        #expect(restored.position == 7)
    }

    @Test func leftoverTemporaryFilesAreRemoved() throws {
        let dir = try Fixtures.makeDirectory()
        let store = StateStore(directory: dir)
        for name in [".state.json.tmp-123-abc", ".position.json.tmp-9-1", "state.json.corrupt-1", "other"] {
            try Fixtures.write([1, 2, 3], to: dir + "/" + name)
        }
        #expect(store.removeLeftoverTemporaryFiles().sorted() == [".position.json.tmp-9-1", ".state.json.tmp-123-abc"])
        #expect(files(in: dir) == ["other", "state.json.corrupt-1"])
    }
}

@Suite struct StateLockTests {
    @Test func oneOwnerAtATime() throws {
        let dir = try Fixtures.makeDirectory() + "/state/aubade"
        try {
            guard case .acquired(let lock) = try StateLock.acquire(in: dir) else { Issue.record("not acquired"); return }
            // Another open file description (as another process has) is refused, without waiting.
            guard case .heldByAnother(let owner) = try StateLock.acquire(in: dir) else { Issue.record("acquired twice"); return }
            #expect(owner == getpid())
            withExtendedLifetime(lock) {}
        }()
        // Released with its owner.
        guard case .acquired = try StateLock.acquire(in: dir) else { Issue.record("not released"); return }
    }

    @Test func anotherProcessHoldingTheLockIsSeen() throws {
        let dir = try Fixtures.makeDirectory()
        // A child process holds the lock (the sleep itself holds the descriptor, so stopping
        // it by its PID releases the lock and leaves nothing behind).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec 9>\"$0\"; flock -x 9; exec sleep 30", dir + "/lock"]
        try process.run()
        defer { process.terminate(); process.waitUntilExit() }
        #expect(eventually(timeout: 3) {
            if case .heldByAnother = (try? StateLock.acquire(in: dir)) { return true } else { return false }
        })
    }
}

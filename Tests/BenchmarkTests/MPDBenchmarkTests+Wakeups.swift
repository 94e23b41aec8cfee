import Foundation
@testable import TestSupport

extension MPDBenchmarkTests {
    // MARK: 5. Idle wake-up

    /// The long single playing on both servers; then, `wakeups` times, in turn: PlayPause on
    /// the bus (Aubade), `pause` on a second MPD connection (Aubade, then mpd), each timed to
    /// `changed: player` at a client idling on `player`.
    func measureWakeups(aubade: MPDBenchServer, mpd: MPDBenchServer, table: inout MPDTable) throws {
        struct Side {
            let server: MPDBenchServer
            let idle: MPDBenchConnection
            let control: MPDBenchConnection
            var paused = false
        }
        var sides: [Side] = []
        for server in [aubade, mpd] {
            let side = Side(server: server, idle: try server.connect(), control: try server.connect())
            try side.control.ok("clear")
            try side.control.ok("add \(mpdQuoted(facts.longTrack))")
            try side.control.ok("play")
            let deadline = Date(timeIntervalSinceNow: 10)
            while try side.control.ok("status").fields["state"] != "play" {
                guard Date() < deadline else { throw DaemonError("\(server.name) does not play \(facts.longTrack)") }
                Thread.sleep(forTimeInterval: 0.02)
            }
            sides.append(side)
        }
        Thread.sleep(forTimeInterval: 0.5)
        let bus = try RawBus()
        var missed: [String: Int] = [:]
        for _ in 0..<wakeups {
            // Aubade: MPRIS PlayPause.
            if let ms = try wake(sides[0].idle, trigger: {
                _ = try bus.send(destination: Daemon.busName, interface: RawBus.player, member: "PlayPause")
            }) {
                table.add("wakeMPRIS", aubade.name, ms)
            } else {
                missed["wakeMPRIS", default: 0] += 1
            }
            sides[0].paused.toggle()
            _ = bus.pump(milliseconds: 0, parse: false) { _ in }
            Thread.sleep(forTimeInterval: 0.1)
            // Both: `pause` on the other connection.
            for index in sides.indices {
                let side = sides[index]
                let sent = Stamp.now()
                if let ms = try wake(side.idle, trigger: { try side.control.send("pause \(side.paused ? 0 : 1)") }) {
                    table.add("wakeMPD", side.server.name, ms)
                } else {
                    missed["wakeMPD " + side.server.name, default: 0] += 1
                }
                let answer = try side.control.readAnswer(since: sent, timeout: 10)
                guard answer.end == .ok else { throw DaemonError("\(side.server.name): pause: \(answer.end)") }
                sides[index].paused.toggle()
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        for (what, count) in missed.sorted(by: { $0.key < $1.key }) {
            table.notes.append("\(what): \(count) of \(wakeups) toggles brought no `changed: player` within 5 s.")
        }
        table.note("wakeMPRIS", mpd.name, "no MPRIS of its own")
        for side in sides {
            try side.control.ok("stop")
            try side.control.ok("clear")
        }
    }

    /// Arms `idle player` on `idle`, runs `trigger`, and times it to `changed: player`: the
    /// milliseconds, or nil when the idle ended without it (within 5 s).
    private func wake(_ idle: MPDBenchConnection, trigger: () throws -> Void) throws -> Double? {
        try armIdle(idle, "player")
        let start = Stamp.now()
        try trigger()
        let answer: MPDBenchConnection.Answer
        do {
            answer = try idle.readAnswer(since: start, timeout: 5)
        } catch {
            // Nothing came: end the idle (its answer is a bare OK).
            try idle.send("noidle")
            _ = try idle.readAnswer(since: Stamp.now(), timeout: 5)
            return nil
        }
        guard answer.end == .ok, answer.text.contains("changed: player") else { return nil }
        return answer.milliseconds
    }
}

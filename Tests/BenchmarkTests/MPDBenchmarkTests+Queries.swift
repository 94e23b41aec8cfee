import Foundation
@testable import TestSupport

extension MPDBenchmarkTests {
    // MARK: 3. Queries

    /// Each query `runs` times on each server, the servers taking turns; `listallinfo` on a
    /// fresh connection each time (mpd closes its).
    func measureQueries(aubade: MPDBenchServer, mpd: MPDBenchServer, table: inout MPDTable) throws {
        let queries: [(key: String, command: String, songs: Int?)] = [
            ("search", "search any \(mpdQuoted(facts.searchWord.lowercased()))", facts.searchMatches),
            ("find", "find album \(mpdQuoted(facts.album))", facts.albumTracks),
            ("list", "list album group albumartist", nil),
            ("lsinfo", "lsinfo \(mpdQuoted(facts.bigFolder))", facts.bigFolderFiles),
            ("listallinfo", "listallinfo", nil),
        ]
        var connections: [String: MPDBenchConnection] = [:]
        for server in [aubade, mpd] { connections[server.name] = try server.connect() }
        var sizes: [String: [String: Int]] = [:]
        for run in 0..<runs {
            for query in queries {
                for server in run % 2 == 0 ? [aubade, mpd] : [mpd, aubade] {
                    var connection = connections[server.name]!
                    if connection.isClosed || query.key == "listallinfo" {
                        connection = try server.connect()
                        connections[server.name] = connection
                    }
                    let answer = try connection.command(query.command, timeout: 600, keep: query.key != "listallinfo")
                    sizes[query.key, default: [:]][server.name] = answer.bytes
                    switch answer.end {
                    case .ok:
                        table.add(query.key, server.name, answer.milliseconds)
                        var note = MPDTable.format(Double(answer.bytes), "bytes")
                        if let expected = query.songs {
                            let found = answer.values("file").count
                            note += found == expected ? ", \(found) songs" : ", \(found) songs (\(expected) expected)"
                        }
                        table.note(query.key, server.name, note)
                    case .closed:
                        table.note(query.key, server.name, String(format: "no answer: it closed the connection after %@ (%.0f ms)",
                                                                  MPDTable.format(Double(answer.bytes), "bytes"), answer.milliseconds))
                    case .ack(let line):
                        table.note(query.key, server.name, "refused: \(line)")
                    }
                }
            }
        }
        for (key, bySize) in sizes.sorted(by: { $0.key < $1.key }) where key != "listallinfo" {
            if let ours = bySize["Aubade"], let theirs = bySize["mpd"], ours != theirs {
                table.notes.append("`\(key)`: Aubade's answer is \(ours) bytes, mpd's \(theirs).")
            }
        }
    }

    // MARK: 2. Updates

    /// One file retagged, then `update` of everything, of its folder, and (Aubade) no command
    /// at all; `runs` changes of each.
    func measureUpdates(aubade: MPDBenchServer, mpd: MPDBenchServer, table: inout MPDTable) throws {
        let work = self.work!
        let (a, b, original) = try fixture.retagVariants(facts: facts, work: work)
        originalRetagBytes = original
        let aubadeConnection = try aubade.connect()
        let mpdConnection = try mpd.connect()
        var lastWrite = Date.distantPast
        var next = 0
        /// Writes the next variant, at least 1.1 s after the last write; its title.
        func retag() throws -> (title: String, closed: Stamp) {
            let wait = 1.1 - Date().timeIntervalSince(lastWrite)
            if wait > 0 { Thread.sleep(forTimeInterval: wait) }
            next += 1
            let closed = try fixture.overwrite(facts.retagFile, with: next % 2 == 1 ? a : b)
            lastWrite = Date()
            return (next % 2 == 1 ? "Retagged A" : "Retagged B", closed)
        }
        func title(_ connection: MPDBenchConnection) throws -> String {
            try connection.ok("lsinfo \(mpdQuoted(facts.retagFile))").fields["Title"] ?? ""
        }
        for _ in 0..<runs {
            for (key, uri) in [("updateAll", nil), ("updateFolder", facts.retagFolder)] as [(String, String?)] {
                let change = try retag()
                for (server, connection) in [(aubade, aubadeConnection), (mpd, mpdConnection)] {
                    let (ms, _) = try timedUpdate(connection, uri: uri, timeout: 600)
                    let seen = try title(connection)
                    if seen == change.title {
                        table.add(key, server.name, ms)
                    } else {
                        table.note(key, server.name, "the new title was not served after the update (\(seen))")
                    }
                }
                // Aubade's own watch rescans the folder a second after the write: let it pass.
                try settle(aubadeConnection, after: change.closed)
            }
            try armIdle(aubadeConnection, "database")
            let change = try retag()
            let idle = try aubadeConnection.readAnswer(since: change.closed, timeout: 60)
            guard idle.end == .ok, idle.text.contains("changed: database") else {
                throw DaemonError("Aubade: no changed: database after a file was retagged: \(idle.text)")
            }
            let seen = try title(aubadeConnection)
            if seen == change.title {
                table.add("inotify", aubade.name, idle.milliseconds)
            } else {
                table.note("inotify", aubade.name, "changed: database came, but the old title was served (\(seen))")
            }
            try settle(aubadeConnection, after: change.closed)
        }
        table.note("inotify", mpd.name, "off here (`auto_update \"no\"`)")
    }

    /// Sends `idle SUBSYSTEM` and makes sure it waits: an idle answered at once (a change
    /// the client had not heard of yet) is read and sent again.
    func armIdle(_ connection: MPDBenchConnection, _ subsystem: String) throws {
        for _ in 0..<5 {
            try connection.send("idle \(subsystem)")
            Thread.sleep(forTimeInterval: 0.03)
            guard connection.hasPendingInput else { return }
            _ = try connection.readAnswer(since: Stamp.now(), timeout: 5)
        }
        throw DaemonError("idle \(subsystem) keeps answering at once")
    }

    /// Waits until 2 s after `write` and no update job runs (Aubade's watch has rescanned).
    private func settle(_ connection: MPDBenchConnection, after write: Stamp) throws {
        let left = 2.0 - write.milliseconds(to: Stamp.now()) / 1000
        if left > 0 { Thread.sleep(forTimeInterval: left) }
        let deadline = Date(timeIntervalSinceNow: 120)
        while try connection.ok("status").fields["updating_db"] != nil, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    /// `update [URI]` and wait for its end as `mpc -w update` does: `status` while it shows the
    /// job, `idle update` between. From just before `update` was written to the `changed:
    /// update` after which the job was gone (or, if it was gone at the first `status`, that
    /// answer); and the job's id.
    func timedUpdate(_ connection: MPDBenchConnection, uri: String?, timeout: TimeInterval) throws -> (Double, String) {
        let start = Stamp.now()
        let answer = try connection.ok(uri.map { "update \(mpdQuoted($0))" } ?? "update")
        guard let job = answer.fields["updating_db"] else { throw DaemonError("update: no updating_db in \(answer.text)") }
        var end: Stamp?
        while true {
            let status = try connection.ok("status")
            guard status.fields["updating_db"] == job else {
                if end == nil { end = status.at }
                break
            }
            let idle = try connection.command("idle update", timeout: timeout)
            guard idle.end == .ok else { throw DaemonError("idle update: \(idle.end)") }
            end = idle.at
        }
        return (start.milliseconds(to: end!), job)
    }
}

import Foundation
@testable import TestSupport

/// The corpus run against mpd and Aubade at once: each step sent to both, both answers read,
/// known differences and masks applied, what is left compared line by line. Differences are
/// collected, not thrown: one run reports them all.
final class SideBySideRun {
    let mpd: SideBySideServer
    let aubade: SideBySideServer
    let music: URL
    private var masks = AnswerMasks()
    private(set) var knownDifferences: KnownDifferences
    private(set) var exchanges = 0
    private(set) var differences: [String] = []
    /// Every exchange, both sides, after masking (printed when something differs).
    private(set) var transcript: [String] = []
    /// Every command name sent, for the check that the corpus covers the command table.
    private(set) var commandsSent: Set<String> = []
    /// The steps that took longest, in seconds (printed: where the test's time goes).
    private(set) var slowest: [(step: String, seconds: Double)] = []

    init(mpd: SideBySideServer, aubade: SideBySideServer, music: URL, knownDifferences: KnownDifferences) {
        self.mpd = mpd
        self.aubade = aubade
        self.music = music
        self.knownDifferences = knownDifferences
    }

    func run(_ steps: [SideBySideStep]) throws {
        let pair = ClientPair(mpd: mpd.main, aubade: aubade.main, unix: false)
        try run(steps, pair)
        (mpd.main, aubade.main) = (pair.mpd, pair.aubade)
    }

    private func run(_ steps: [SideBySideStep], _ pair: ClientPair) throws {
        for step in steps {
            let started = Date()
            try run(step, pair)
            note(step, took: Date().timeIntervalSince(started))
            // A server that closed the connection (an error that closes, `close`, `kill`): a
            // new client for the steps after, on that server only (the other's closing shows
            // in the comparison already).
            if pair.mpdClosed { pair.mpd = try mpd.connect(pair.unix) }
            if pair.aubadeClosed { pair.aubade = try aubade.connect(pair.unix) }
            (pair.mpdClosed, pair.aubadeClosed) = (false, false)
        }
    }

    private func run(_ step: SideBySideStep, _ pair: ClientPair) throws {
        let (left, right) = (pair.mpd, pair.aubade)
        do {
            switch step {
            case .command(let line):
                try exchange([line], pair)
            case .batch(let lines):
                try exchange(lines, pair)
            case .unordered(let line):
                try exchange([line], pair, unordered: true)
            case .markVersion(let name):
                for (server, connection) in [(mpd, left), (aubade, right)] {
                    server.versions[name] = try connection.command("status").value("playlist")
                }
            case .waitForUpdate:
                for connection in [left, right] { try ReferenceMPD.waitForUpdates(connection, timeout: Sanitizer.scaled(20)) }
            case .waitForPlayback:
                for (server, connection) in [(mpd, left), (aubade, right)] { try waitForPlayback(server, connection) }
            case .idle(let line, let trigger):
                try idle(line, trigger: trigger, pair)
            case .client(let unix, let inner):
                let inside = ClientPair(mpd: try mpd.connect(unix), aubade: try aubade.connect(unix), unix: unix)
                defer { inside.mpd.close(); inside.aubade.close() }
                try run(inner, inside)
            case .picture(let command, let uri):
                try picture(command, uri: uri, pair)
            case .seededEdits(let seed, let count):
                var edits = SeededQueueEdits(seed: seed)
                for _ in 0..<count {
                    // The edit is chosen from mpd's queue; Aubade's should be the same.
                    let status = try pair.mpd.command("status")
                    let length = Int(status.value("playlistlength") ?? "") ?? 0
                    let current = status.value("song").flatMap(Int.init)
                    // Each edit's answer, then the state it leaves, compared.
                    try run([edits.next(queueLength: length, current: current), .command("status")], pair)
                }
            }
        } catch {
            throw DaemonError("\(error) at \(step); so far:\n" + transcript.suffix(3).joined(separator: "\n"))
        }
    }

    private func note(_ step: SideBySideStep, took seconds: Double) {
        if case .client = step { return }
        if case .seededEdits = step { return }
        slowest.append(("\(step)", seconds))
        slowest.sort { $0.seconds > $1.seconds }
        if slowest.count > 8 { slowest.removeLast() }
    }

    // MARK: Exchanges

    @discardableResult
    private func exchange(_ lines: [String], _ pair: ClientPair, unordered: Bool = false) throws -> (MPDAnswer, MPDAnswer) {
        let leftLines = try lines.map { try resolve($0, mpd, pair.mpd) }
        let rightLines = try lines.map { try resolve($0, aubade, pair.aubade) }
        try pair.mpd.send(lines: leftLines)
        try pair.aubade.send(lines: rightLines)
        let answers = (try pair.mpd.readAnswer(), try pair.aubade.readAnswer())
        pair.mpdClosed = answers.0.end == .closed
        pair.aubadeClosed = answers.1.end == .closed
        compare(lines, answers.0, answers.1, unordered: unordered)
        return answers
    }

    /// Compares two answers to `lines` (as the corpus wrote them), recording any difference.
    func compare(_ lines: [String], _ left: MPDAnswer, _ right: MPDAnswer, unordered: Bool = false) {
        exchanges += 1
        let names = lines.compactMap { $0.split(separator: " ").first.map(String.init) }
        commandsSent.formUnion(names)
        var exchange = Exchange(command: names.first ?? "", commands: Set(names), sent: lines,
                                mpd: Exchange.lines(of: left), aubade: Exchange.lines(of: right))
        if unordered {
            exchange.mpd = Self.songBlocksSorted(exchange.mpd)
            exchange.aubade = Self.songBlocksSorted(exchange.aubade)
        }
        let applied = knownDifferences.apply(to: &exchange)
        masks.apply(to: &exchange)
        let title = lines.joined(separator: " ⏎ ")
        let known = applied.isEmpty ? "" : "   [known: \(applied.joined(separator: ", "))]"
        transcript.append("» \(title)\(known)\n" + Self.sideBySide(exchange.mpd, exchange.aubade))
        if exchange.mpd != exchange.aubade {
            differences.append("» \(title)\(known)\n" + Self.sideBySide(exchange.mpd, exchange.aubade, onlyDifferences: true))
        }
    }

    /// `{id:N}`, `{version:NAME}` and `{music}` filled in for one server.
    private func resolve(_ line: String, _ server: SideBySideServer, _ connection: MPDConnection) throws -> String {
        var line = line.replacingOccurrences(of: "{music}", with: music.path)
        while let open = line.range(of: "{id:"), let close = line[open.upperBound...].firstIndex(of: "}") {
            let position = String(line[open.upperBound..<close])
            let id = try connection.command("playlistinfo \(position)").value("Id") ?? "999999"
            line.replaceSubrange(open.lowerBound...close, with: id)
        }
        while let open = line.range(of: "{version:"), let close = line[open.upperBound...].firstIndex(of: "}") {
            let name = String(line[open.upperBound..<close])
            guard let version = server.versions[name] else { throw DaemonError("no version marked \(name)") }
            line.replaceSubrange(open.lowerBound...close, with: version)
        }
        return line
    }

    // MARK: Idle, pictures, playback

    private func idle(_ line: String, trigger: [SideBySideStep], _ pair: ClientPair) throws {
        let idlers = (try mpd.connect(false), try aubade.connect(false))
        defer { idlers.0.close(); idlers.1.close() }
        try idlers.0.send(line)
        try idlers.1.send(line)
        if case .command("noidle") = trigger.first, trigger.count == 1 {
            // noidle from the idling client: an idle with nothing to tell ends at once.
            try idlers.0.send("noidle")
            try idlers.1.send("noidle")
        } else {
            try run(trigger, pair)
        }
        compare([line], try idlers.0.readAnswer(), try idlers.1.readAnswer())
    }

    /// Reads a picture through, chunk by chunk, at the offsets mpd's answers give; then asks
    /// one past its end.
    private func picture(_ command: String, uri: String, _ pair: ClientPair) throws {
        var offset = 0
        var chunks = 0
        while true {
            let answers = try exchange(["\(command) \"\(uri)\" \(offset)"], pair)
            chunks += 1
            let size = Int(answers.0.value("size") ?? "") ?? 0
            let taken = answers.0.binary.count
            guard answers.0.isOK, taken > 0, offset + taken < size, chunks < 1000 else {
                if size > 0 { try exchange(["\(command) \"\(uri)\" \(size + 1)"], pair) }
                return
            }
            offset += taken
        }
    }

    private func waitForPlayback(_ server: SideBySideServer, _ connection: MPDConnection) throws {
        var last = ""
        try eventually("\(server.name) playing (last status: \(last))", timeout: Sanitizer.scaled(10)) {
            let status = try connection.command("status")
            last = status.lines.joined(separator: ", ")
            return status.value("state") == "play" && (Double(status.value("elapsed") ?? "") ?? 0) > 0
        }
    }

    // MARK: Reporting

    /// The two clients steps run on, one a server; replaced when a server closed one.
    final class ClientPair {
        var mpd: MPDConnection
        var aubade: MPDConnection
        let unix: Bool
        var mpdClosed = false
        var aubadeClosed = false

        init(mpd: MPDConnection, aubade: MPDConnection, unix: Bool) {
            self.mpd = mpd
            self.aubade = aubade
            self.unix = unix
        }
    }

    /// A shuffle's answer: its song blocks (each from a `file:` line to the next) sorted by
    /// their file and priority, with positions and ids left out (a shuffle gives each server its
    /// own order).
    static func songBlocksSorted(_ lines: [String]) -> [String] {
        var blocks: [[String]] = []
        var tail: [String] = []
        for line in lines {
            if line.hasPrefix("file: ") { blocks.append([line]) } else if blocks.isEmpty || line == "OK" || line.hasPrefix("ACK") {
                tail.append(line)
            } else if !line.hasPrefix("Pos: "), !line.hasPrefix("Id: ") {
                blocks[blocks.count - 1].append(line)
            }
        }
        func key(_ block: [String]) -> String { block[0] + "\n" + (block.first { $0.hasPrefix("Prio: ") } ?? "") }
        return blocks.sorted { key($0) < key($1) }.flatMap { $0 } + tail
    }

    /// Both answers in two columns, `≠` where a line differs.
    static func sideBySide(_ left: [String], _ right: [String], onlyDifferences: Bool = false) -> String {
        var out: [String] = []
        for index in 0..<max(left.count, right.count) {
            let l = index < left.count ? left[index] : "—"
            let r = index < right.count ? right[index] : "—"
            if l == r {
                if !onlyDifferences { out.append("    \(l)") }
            } else {
                out.append("  ≠ mpd:    \(l)")
                out.append("    aubade: \(r)")
            }
        }
        return out.joined(separator: "\n")
    }
}

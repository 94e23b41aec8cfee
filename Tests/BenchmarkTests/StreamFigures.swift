import Foundation
@testable import TestSupport

/// What one session of the stream benchmark measured for one player.
struct StreamSample {
    /// ms from process start (mpd: `play`) to the first loud window at the sink.
    var firstAudio: Double?
    /// s from tone B audible at the sink to the player's word of the new title (negative: early).
    var titleOffset: Double?
    var titleSource = ""
    /// mpd's own `currentsong` title, polled (s, as `titleOffset`).
    var mpdOwnTitleOffset: Double?
    /// Where icecast put the title for a raw listener (ms from the boundary frame).
    var icecastPlacement: Double?
    /// CPU seconds per minute of steady streaming, and peak RSS (MB), of the player process.
    var cpuPerMinute: Double?
    var peakMB: Double?
    /// mpDris2's, beside mpd.
    var bridgeCPUPerMinute: Double?
    var bridgePeakMB: Double?
    /// s from the SIGTERM to icecast2 until the new source was on the mount.
    var outage: Double?
    var recovered: Bool?
    /// s from the SIGTERM to the first tone C at the sink.
    var restartToAudio: Double?
    /// The longest silence (s) at the sink between the restart and tone C.
    var silence: Double?
    /// For a player that did not come back: s after the restart when its longest silence began.
    var wentQuietAfter: Double?
    /// What the player did after the restart, for the notes; and in a few words, for the table.
    var fate: String?
    var shortFate: String?
    var problems: [String] = []

    var summary: String {
        func value(_ number: Double?, _ format: String) -> String { number.map { String(format: format, $0) } ?? "n/a" }
        var parts = [
            "first audio \(value(firstAudio, "%.0f ms"))",
            "title \(value(titleOffset, "%+.3f s"))" + (titleSource.isEmpty ? "" : " (\(titleSource))")
                + (mpdOwnTitleOffset.map { String(format: ", mpd's own currentsong %+.3f s", $0) } ?? "")
                + (icecastPlacement.map { String(format: "; icecast placed it %+.0f ms from the boundary for a raw listener", $0) } ?? ""),
            "CPU \(value(cpuPerMinute, "%.3f s/min"))" + (bridgeCPUPerMinute.map { String(format: " (+ mpDris2 %.3f s/min)", $0) } ?? ""),
            "peak RSS \(value(peakMB, "%.1f MB"))" + (bridgePeakMB.map { String(format: " (+ mpDris2 %.1f MB)", $0) } ?? ""),
            "restart: source back after \(value(outage, "%.2f s")), player \(fate ?? "?")"
                + (silence.map { String(format: ", longest silence %.2f s", $0) } ?? ""),
        ]
        if !problems.isEmpty { parts.append("problems: " + problems.joined(separator: "; ")) }
        return parts.joined(separator: ", ")
    }
}

/// The rows of the stream table, filled session by session.
struct StreamFigures {
    var firstAudio: PeerFigure
    var cpu: PeerFigure
    var rss: PeerFigure
    var restart: PeerFigure
    var silence: PeerFigure
    var title: PeerFigure
    let runs: Int
    let recoverySeconds: Double
    private var recovered: [Peer: Int] = [:]
    private var tried: [Peer: Int] = [:]
    private var fates: [Peer: [String]] = [:]
    private var shortFates: [Peer: [String]] = [:]
    private var bridgeCPU: [Double] = []
    private var bridgeRSS: [Double] = []
    private var mpdOwnTitle: [Double] = []
    private var placements: [Double] = []
    private var outages: [Double] = []
    private var problems: [String] = []
    private var titleSources: [Peer: Set<String>] = [:]

    init(players: [Peer], steadySeconds: Double, recoverySeconds: Double, metadataInterval: Int, runs: Int) {
        self.runs = runs
        self.recoverySeconds = recoverySeconds
        let minute = steadySeconds == 60 ? "60 s" : "\(Int(steadySeconds)) s (shortened by AUBADE_BENCH_STREAM_SECONDS)"
        firstAudio = PeerFigure(key: "urlToFirstAudio", name: "URL → first audio at the sink", unit: "ms", decimals: 0,
                                target: .atMost(500),
                                how: "process start (posix_spawn; mpd: the `play` command, mpd and mpDris2 already running with the "
                                    + "URL queued) → the first 5 ms window with RMS > 500 in a recording of headphones.monitor "
                                    + "(parec started before the player; byte N put at origin + N/176400 s, about ±10 ms, as in "
                                    + "peers.md). The source had run 5 s, so icecast's burst was full; icecast's own answer and "
                                    + "first bytes (≈ 0.1 + 0.3 s here, Icecast.swift) are part of the figure")
        cpu = PeerFigure(key: "cpuPerMinute", name: "CPU per minute of streaming", unit: "s", decimals: 3,
                         target: players.contains(.mpg123) ? .atMostTimes(1.3, .mpg123) : .none,
                         how: "utime+stime of the player's process (all its threads) from /proc/PID/stat over \(minute) of "
                            + "steady streaming (after the title test), scaled to one minute; 10 ms ticks. mpd: the mpd process "
                            + "alone (mpDris2 beside it: notes)")
        rss = PeerFigure(key: "peakRSS", name: "peak resident memory while streaming", unit: "MB", decimals: 1, target: .none,
                         how: "VmHWM of the player's process at the end of the steady streaming (mpd alone; mpDris2: notes); "
                            + "1 MB = 10⁶ bytes")
        restart = PeerFigure(key: "restartToAudio", name: "icecast2 restart → audio again at the sink", unit: "s", decimals: 2,
                             target: .none,
                             how: "IcecastServer.restart() (SIGTERM to icecast2 by PID; once it has exited, started again on the "
                                + "same port, waited for until it answers), then at once a new source playing tone C (1320 Hz): "
                                + "from the SIGTERM to the first zero crossing at headphones.monitor after which 8 half-periods "
                                + "in a row are tone C's, the first audio of the new connection. What the player had buffered "
                                + "plays first, so more buffered audio reads later here (the silence row is what a listener "
                                + "hears). Only the runs that came back")
        restart.showsRatio = false
        silence = PeerFigure(key: "silenceAcrossRestart", name: "silence heard across the restart", unit: "s", decimals: 2,
                             target: .none,
                             how: "the longest run of 5 ms windows with RMS ≤ 500 at the sink between the restart and the first "
                                + "tone C (0 = the buffer covered the outage). Only the runs that came back")
        silence.showsRatio = false
        title = PeerFigure(key: "titleOffset", name: "new title published − its music heard (tone A → B)", unit: "s", decimals: 3,
                           target: .within(0.1),
                           how: "the source sets the title “Aubade Bench - Tone B” through icecast's admin API just before it "
                            + "sends the first frame of tone B. The time of the first PropertiesChanged(Metadata) naming “Tone B” "
                            + "(dbus-monitor's stamp, put on the monotonic clock; mpv: mpv-mpris, mpd: mpDris2) minus the moment "
                            + "tone B became audible at the sink (the first zero crossing in the headphones.monitor capture after "
                            + "which 8 half-periods are nearer 880 Hz than 440 Hz; the MP3 is cut so that B decodes from that "
                            + "frame on). Negative: the title came early. Icecast itself puts a title up to 1399 bytes (≈ 87 ms) "
                            + "before the frame it was set at and up to one icy-metaint (\(metadataInterval) bytes, "
                            + String(format: "%.0f ms", Double(metadataInterval) / 16) + ") after it (IcecastSource.swift): "
                            + "a raw listener on the mount measured where it landed in each session (notes)")
        title.showsRatio = false
        for peer in Peer.allCases where peer.busName == nil {
            title.notApplicable[peer] = "no MPRIS"
        }
    }

    mutating func add(_ peer: Peer, _ sample: StreamSample, run: Int) {
        if let value = sample.firstAudio { firstAudio.add(peer, value) }
        if let value = sample.cpuPerMinute { cpu.add(peer, value) }
        if let value = sample.peakMB { rss.add(peer, value) }
        if let value = sample.restartToAudio { restart.add(peer, value) }
        if let value = sample.silence { silence.add(peer, value) }
        if peer.busName != nil {
            if let value = sample.titleOffset {
                title.add(peer, value)
                titleSources[peer, default: []].insert(sample.titleSource)
            } else {
                title.fail(peer, "run \(run): no title published")
            }
        }
        if let value = sample.bridgeCPUPerMinute { bridgeCPU.append(value) }
        if let value = sample.bridgePeakMB { bridgeRSS.append(value) }
        if let value = sample.mpdOwnTitleOffset { mpdOwnTitle.append(value) }
        if let value = sample.icecastPlacement { placements.append(value) }
        if let value = sample.outage { outages.append(value) }
        tried[peer, default: 0] += 1
        if sample.recovered == true { recovered[peer, default: 0] += 1 }
        fates[peer, default: []].append("run \(run): \(sample.fate ?? "?")")
        if let short = sample.shortFate { shortFates[peer, default: []].append(short) }
        for problem in sample.problems { problems.append("\(peer.title), run \(run): \(problem)".replacingOccurrences(of: "\n", with: " / ")) }
    }

    mutating func fail(_ peer: Peer, _ why: String) {
        firstAudio.fail(peer, why)
        problems.append("\(peer.title): session failed, \(why)".replacingOccurrences(of: "\n", with: " / "))
    }

    /// The rows in table order, the recovery count made a row of its own.
    var all: [PeerFigure] {
        var back = PeerFigure(key: "recoveredAfterRestart", name: "came back within \(Int(recoverySeconds)) s of the restart",
                              unit: "", decimals: 0, target: .none,
                              how: "whether tone C reached the sink within \(Int(recoverySeconds)) s of the restart, the player "
                                + "left alone (no command sent); one that exited is not waited for. What each did: notes")
        back.showsRatio = false
        var restart = restart, silence = silence, title = title
        for peer in Peer.allCases {
            guard tried[peer] != nil else { continue }
            back.add(peer, Double(recovered[peer] ?? 0))
            if restart.samples[peer] == nil {
                // "exited (status 0) 4.1 s after the restart" → one entry per kind of fate.
                var kinds: [String] = []
                for fate in shortFates[peer] ?? [] {
                    let kind = fate.replacingOccurrences(of: #" [0-9.]+ s after the restart"#, with: "", options: .regularExpression)
                    if !kinds.contains(kind) { kinds.append(kind) }
                }
                let why = "did not come back: " + (kinds.isEmpty ? "?" : kinds.joined(separator: "; "))
                restart.notApplicable[peer] = why
                silence.notApplicable[peer] = why
            }
            if title.samples[peer] == nil, title.notApplicable[peer] == nil {
                title.notApplicable[peer] = "no PropertiesChanged(Metadata) naming the new title"
            }
        }
        // "2 of 3" in the table: the count is the sample, the unit says of how many.
        back.unit = "of \(runs)"
        return [firstAudio, cpu, rss, title, restart, silence, back]
    }

    func notes(players: [Peer]) -> [String] {
        func spread(_ values: [Double], _ format: String) -> String {
            guard let low = values.min(), let high = values.max() else { return "none" }
            let sorted = values.sorted()
            let median = sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
            return String(format: format, median) + " (" + String(format: format, low) + " – " + String(format: format, high) + ")"
        }
        var result: [String] = []
        for peer in players {
            if let list = fates[peer] { result.append("\(peer.title) after the icecast2 restart: " + list.joined(separator: "; ")) }
        }
        if !bridgeCPU.isEmpty {
            result.append("mpDris2 beside mpd (not in the mpd column): CPU \(spread(bridgeCPU, "%.3f s")) per minute, "
                          + "peak RSS \(spread(bridgeRSS, "%.1f MB"))")
        }
        if !mpdOwnTitle.isEmpty {
            result.append("mpd's own title (`currentsong` polled every 50 ms) − tone B heard: \(spread(mpdOwnTitle, "%+.3f s"))")
        }
        for (peer, sources) in titleSources.sorted(by: { $0.key.rawValue < $1.key.rawValue }) where sources.count > 1 || sources.first?.hasPrefix("mpd's") == true {
            result.append("\(peer.title) title figures from: " + sources.sorted().joined(separator: ", "))
        }
        result.append("Where icecast put the new title for a raw listener of the mount (ICY block − boundary frame, in ms of audio; "
                      + "each listener's blocks fall elsewhere): \(spread(placements, "%+.0f ms")) over \(placements.count) sessions")
        result.append("icecast2 restart (SIGTERM → new source on the mount): \(spread(outages, "%.2f s"))")
        result += problems
        return result
    }
}

import MPDProtocol
import PlayerCore

/// `status`, `stats`, `currentsong`, the volume and ReplayGain as read, the outputs.
extension MPDServer {
    func runStatus(_ command: MPDCommand, for client: MPDClient, reply: @escaping Reply) {
        switch command {
        case .status:
            reply(answer { $0.status(statusReport()) })
        case .stats:
            reply(answer { $0.stats(statsReport()) })
        case .currentSong:
            guard let current = mirror.current, let position = mirror.currentPosition else { return reply(Self.ok) }
            let info = describer.info(current)
            reply(answer { $0.queueEntry(info, at: slot(current, position), tags: client.tags) })
        case .getVolume:
            reply(answer { $0.line("volume", volumePercent) })
        case .replayGainStatus:
            reply(answer { $0.line("replay_gain_mode", mirror.snapshot.policy.replayGain.rawValue) })
        case .outputs:
            reply(answer { $0.outputs(currentOutputs) })
        case .enableOutput(let id), .disableOutput(let id), .toggleOutput(let id):
            guard currentOutputs.contains(where: { $0.id == id }) else { return reply(.failure(.noSuchOutput)) }
            let on: Bool
            switch command {
            case .enableOutput: on = true
            case .disableOutput: on = false
            default: on = !mirror.snapshot.outputEnabled
            }
            let box = UncheckedBox(reply)
            frontEnd.perform(.setOutputEnabled(on)) { [weak self] turn in
                if let turn, turn.before.outputEnabled != turn.after.outputEnabled { self?.broadcast(.output) }
                box.value(Self.ok)
            }
        case .listPartitions:
            reply(answer { $0.line("partition", "default") })
        case .urlHandlers:
            reply(answer { $0.urlHandlers(["http://", "https://"]) })
        case .decoders:
            reply(answer { $0.decoders(Self.decoders) })
        default:
            reply(.failure(MPDError(.unknown, "unknown command")))
        }
    }

    /// The outputs, with the one real output switched on or off as the player says.
    var currentOutputs: [OutputInfo] {
        outputs.map { output in
            var output = output
            output.enabled = mirror.snapshot.outputEnabled
            return output
        }
    }

    /// MPD's 0–100; Aubade's volume goes to 150 %, shown as 100.
    var volumePercent: Int { min(100, max(0, Int((mirror.snapshot.volume * 100).rounded()))) }

    func slot(_ entry: QueueEntry, _ position: Int) -> QueueSlot {
        QueueSlot(position: position, id: Int(clamping: entry.id.rawValue), priority: Int(entry.priority))
    }

    func statusReport() -> StatusReport {
        let snapshot = mirror.snapshot
        let state: StatusReport.State = switch snapshot.status {
        case .playing: .play
        case .paused: .pause
        case .stopped: .stop
        }
        var report = StatusReport(volume: volumePercent, repeats: snapshot.loopStatus != .none, random: snapshot.shuffle,
                                  single: snapshot.single, consume: snapshot.consume,
                                  playlistVersion: mirror.versions.version, playlistLength: mirror.queue.count,
                                  state: state, updateJob: library?.runningJob ?? updatesNotFinished.min())
        if let current = mirror.current, let position = mirror.currentPosition {
            report.current = .init(position: position, id: Int(clamping: current.id.rawValue))
            report.elapsed = mirror.elapsed(at: clock())
            report.duration = current.track.length
            report.audioFormat = current.track.audioFormat
        }
        if let next = mirror.nextEntry, let position = mirror.queue.position(of: next.id) {
            report.next = .init(position: position, id: Int(clamping: next.id.rawValue))
        }
        return report
    }

    func statsReport() -> StatsReport {
        let now = clock()
        let snapshot = library?.snapshot
        return StatsReport(
            uptime: max(0, now.microseconds - startedAt.microseconds) / 1_000_000,
            playtime: mirror.playtime(at: now) / 1_000_000,
            library: snapshot.map { .init(artists: $0.artistCount, albums: $0.albumCount, songs: $0.songCount,
                                          totalDuration: $0.playtime * 1_000_000, lastUpdate: $0.updated) })
    }

    /// What Aubade plays, by the library it plays it with.
    static let decoders = [
        DecoderInfo(plugin: "mpg123", suffixes: ["mp3"], mimeTypes: ["audio/mpeg"]),
        DecoderInfo(plugin: "flac", suffixes: ["flac"], mimeTypes: ["application/flac", "application/x-flac", "audio/flac", "audio/x-flac"]),
        DecoderInfo(plugin: "vorbis", suffixes: ["ogg", "oga"], mimeTypes: ["application/ogg", "audio/ogg", "audio/vorbis"]),
        DecoderInfo(plugin: "opus", suffixes: ["opus", "ogg", "oga"], mimeTypes: ["audio/ogg", "audio/opus"]),
        DecoderInfo(plugin: "ffmpeg", suffixes: ["m4a", "m4b", "mp4", "aac"], mimeTypes: ["audio/aac", "audio/mp4", "audio/x-m4a"]),
    ]
}

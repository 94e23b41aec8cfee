import AudioOutput
import Decoding
import Inputs
import PlayerCore

/// Where the daemon plays (`output =` in aubade.conf), made into a sink at start.
enum OutputChoice {
    case pulseAudio
    case snapcast(SnapcastSettings, uri: String)
}

/// Carries out PlayerCore's output commands: hands the sink (PulseAudio or Snapcast, behind
/// `AudioSink`) a decoder for an entry, to be opened on its own queue; keeps the sound-server
/// connection whose observer reports routes and calls, apart from playback.
///
/// Runs on the core queue and never touches a file or the network: opening, probing, seeking
/// and connecting happen in `DecodeAhead`, so a slow disk or a dead station cannot hold up a
/// bus call. A file that cannot be opened, or a URL that answers with something that is not
/// audio, comes back as `OutputEvent.unplayable`.
final class OutputBridge {
    private var output: (any AudioSink)?
    /// The sound server: its facts (routes, calls, other streams) and, for the PulseAudio
    /// output, the connection it plays on.
    private var soundServer: SoundServerConnection?
    /// Where the sink plays, for PlayerCore (`Event.setOutput`).
    private(set) var placement = OutputPlacement.soundServer
    /// "the sound server" or "the snapserver", for the log.
    private(set) var destination = "the sound server"
    /// What the last `play`/`stop` returned: events of older runs are stale.
    private(set) var serial = PlaySerial(0)
    /// How streams connect (the CA file comes from aubade.conf).
    var streamSettings = StreamSettings()
    private var streamEvents: (@Sendable (EntryID, StreamStatus, UInt64) -> Void)?
    /// Bumped by every play and stop, so a stream's status from a replaced run is stale.
    private(set) var streamRun: UInt64 = 0
    /// The current stream's reconnect attempts, held while paused.
    private var streamControl: StreamControl?
    /// A stream loaded paused (a restored queue, a seek while paused): nothing is fetched
    /// until Play, which starts it there.
    private var deferredStream: (entry: QueueEntry, position: Microseconds)?
    /// PlayerCore's ReplayGain decision for an entry handed to the output (set by the daemon).
    var replayGain: ((QueueEntry) -> ReplayGainDecision)?

    func start(_ choice: OutputChoice, events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void,
               soundServerEvents: @escaping @Sendable (SoundServerEvent) -> Void,
               streamEvents: @escaping @Sendable (EntryID, StreamStatus, UInt64) -> Void) {
        let identity = StreamIdentity(applicationName: "Aubade", applicationID: "org.aubade.Aubade", iconName: "audio-x-generic")
        let soundServer = SoundServerConnection(identity: identity, events: soundServerEvents)
        self.soundServer = soundServer
        self.streamEvents = streamEvents
        switch choice {
        case .pulseAudio:
            output = PulseAudioOutput(connection: soundServer, identity: identity, serialEvents: events)
        case .snapcast(let settings, let uri):
            output = SnapcastOutput(settings: settings, serialEvents: events)
            destination = "the snapserver"
            placement = .remote(route: AudioRoute(portType: .networkStream, sinkName: uri,
                                                  description: "Snapcast: every room of the snapserver reading \(settings.fifoPath)"),
                                latency: settings.latency)
            // Only watched (calls on this machine pause the house): nothing plays on it.
            soundServer.connectInBackground()
        }
        // Never waits: a server that is missing or frozen must not stop the bus from being
        // answered. An outage comes back as `serverLost`, and the output keeps retrying.
        output?.connectInBackground()
    }

    /// Whether an event belongs to the output's current run (not to one replaced since).
    func isCurrent(_ eventSerial: PlaySerial) -> Bool { eventSerial >= serial }

    func isCurrentStream(_ run: UInt64) -> Bool { run == streamRun }

    func perform(_ command: OutputCommand, volume: Double) {
        guard let output else { return }
        switch command {
        case .play(let entry, let position, let playing):
            streamRun &+= 1
            deferredStream = nil
            if entry.track.isStream && !playing {
                // Restored or selected while paused: a station is called only when it is played.
                if let serial = output.stop() { self.serial = serial }
                deferredStream = (entry, position)
                streamControl = nil
                return
            }
            play(entry, from: position, playing: playing, volume: volume)
        case .enqueue(let entry):
            let (source, _) = decoder(for: entry, at: 0, gain: gain(entry))
            output.enqueue(source, entry: entry.id, title: entry.track.displayTitle, artist: entry.track.artists.first)
        case .endOfQueue: output.endOfQueue()
        case .pause:
            output.pause()
            streamControl?.holdRetries(true)
        case .resume:
            if let deferred = deferredStream {
                deferredStream = nil
                play(deferred.entry, from: deferred.position, playing: true, volume: volume)
                return
            }
            output.resume()
            streamControl?.holdRetries(false)
        case .stop:
            streamRun &+= 1
            deferredStream = nil
            streamControl = nil
            if let serial = output.stop() { self.serial = serial }
        case .setVolume(let level): output.setVolume(level)
        case .setMuted(let muted): output.setMuted(muted)
        case .switchCardProfile(let card, let profile): soundServer?.switchCardProfile(card: card, profile: profile)
        }
    }

    func shutdown() {
        output?.stop()
        output?.shutdown()
        soundServer?.shutdown()
    }

    private func play(_ entry: QueueEntry, from position: Microseconds, playing: Bool, volume: Double) {
        guard let output else { return }
        output.setVolume(volume)
        let (source, control) = decoder(for: entry, at: position, gain: gain(entry))
        streamControl = control
        if let serial = output.play(source, entry: entry.id, title: entry.track.displayTitle,
                                    artist: entry.track.artists.first, playing: playing) {
            self.serial = serial
        }
    }

    /// A decoder that opens the entry's file (seeked to `position`) or connects to its stream,
    /// on its own queue; for a stream, also the handle that holds its reconnects.
    private func decoder(for entry: QueueEntry, at position: Microseconds, gain: SampleGain) -> (DecodeAhead, StreamControl?) {
        switch entry.track.location {
        case .file(let path):
            return (Self.fileDecoder(path, at: position, gain: gain), nil)
        case .stream(let url):
            let control = StreamControl()
            let (id, run, settings, events) = (entry.id, streamRun, streamSettings, streamEvents)
            // A seek in a file over HTTP: as a share of its length (only measured ones seek).
            let fraction = entry.track.length.flatMap { $0 > 0 && position > 0 ? Double(position) / Double($0) : nil }
            let source = DecodeAhead(label: "aubade.stream", fromStart: position <= 0) { isAbandoned in
                try StreamOpener.open(url, settings: settings, control: control, startFraction: fraction,
                                      isCancelled: isAbandoned) { status in
                    events?(id, status, run)
                }
            }
            return (source, control)
        }
    }

    /// What the samples of `entry` are multiplied by (PlayerCore's ReplayGain decision).
    private func gain(_ entry: QueueEntry) -> SampleGain {
        SampleGain(scale: replayGain?(entry).scale ?? 1)
    }

    private static func fileDecoder(_ path: FilePath, at position: Microseconds, gain: SampleGain) -> DecodeAhead {
        DecodeAhead(label: "aubade.decoder", fromStart: position <= 0) { () throws(DecodingError) -> PCMSource in
            let decoder = try AudioDecoders.open(path: path)
            if position > 0 { try decoder.seek(to: position) }
            let format = decoder.format
            return PCMSource(format: AudioOutput.PCMFormat(sampleRate: format.sampleRate, channels: format.channels)) { buffer in
                let count = try decoder.read(into: buffer)
                // A chained Ogg file may change rate or channels midway (the decoder's format
                // follows); the stream was made for the first format, so the track ends there
                // rather than playing samples in the wrong format.
                guard decoder.format == format else { return 0 }
                gain.apply(to: buffer, count: count)
                return count
            }
        }
    }
}

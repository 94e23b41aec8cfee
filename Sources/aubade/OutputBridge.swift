import AudioOutput
import Decoding
import PlayerCore

/// Carries out PlayerCore's output commands: hands the PulseAudio output a decoder for an
/// entry, to be opened on its own queue.
///
/// Runs on the core queue and never touches a file: opening, probing and seeking happen in
/// `DecodeAhead`, so a slow disk cannot hold up a bus call. A file that cannot be opened comes
/// back as `OutputEvent.unplayable`.
final class OutputBridge {
    private var output: PlaybackOutput?
    /// What the last `play`/`stop` returned: events of older runs are stale.
    private(set) var serial = PlaySerial(0)

    func start(events: @escaping @Sendable (OutputEvent, PlaySerial) -> Void) {
        let output = PlaybackOutput(
            identity: StreamIdentity(applicationName: "Aubade", applicationID: "org.aubade.Aubade",
                                     iconName: "audio-x-generic"),
            serialEvents: events)
        self.output = output
        // Never waits: a server that is missing or frozen must not stop the bus from being
        // answered. An outage comes back as `serverLost`, and the output keeps retrying.
        output.connectInBackground()
    }

    /// Whether an event belongs to the output's current run (not to one replaced since).
    func isCurrent(_ eventSerial: PlaySerial) -> Bool { eventSerial >= serial }

    func perform(_ command: OutputCommand, volume: Double) {
        guard let output else { return }
        switch command {
        case .play(let entry, let position, let playing):
            output.setVolume(volume)
            let source = Self.decoder(for: entry.track, at: position)
            if let serial = output.play(source, entry: entry.id, title: entry.track.displayTitle,
                                        artist: entry.track.artists.first, playing: playing) {
                self.serial = serial
            }
        case .enqueue(let entry):
            output.enqueue(Self.decoder(for: entry.track, at: 0), entry: entry.id,
                           title: entry.track.displayTitle, artist: entry.track.artists.first)
        case .endOfQueue: output.endOfQueue()
        case .pause: output.pause()
        case .resume: output.resume()
        case .stop:
            if let serial = output.stop() { self.serial = serial }
        case .setVolume(let level): output.setVolume(level)
        case .switchCardProfile(let card, let profile): output.switchCardProfile(card: card, profile: profile)
        }
    }

    func shutdown() {
        output?.stop()
        output?.shutdown()
    }

    /// A decoder that opens `track` and seeks to `position` on its own queue.
    private static func decoder(for track: Track, at position: Microseconds) -> DecodeAhead {
        DecodeAhead(label: "aubade.decoder", fromStart: position <= 0) { () throws(DecodingError) -> PCMSource in
            let decoder = try MP3Decoder(path: track.path)
            if position > 0 { try decoder.seek(to: position) }
            let format = decoder.format
            return PCMSource(format: AudioOutput.PCMFormat(sampleRate: format.sampleRate, channels: format.channels)) { buffer in
                try decoder.read(into: buffer)
            }
        }
    }
}

import AudioOutput
import Decoding
import PlayerCore

/// Carries out PlayerCore's output commands: opens the decoder for an entry and hands the
/// PulseAudio output a PCM source reading from it.
final class OutputBridge {
    struct Failure {
        var entry: EntryID
        var reason: String
    }

    private var output: PlaybackOutput?
    private var connected = false

    func start(events: @escaping @Sendable (OutputEvent) -> Void) {
        let output = PlaybackOutput(
            identity: StreamIdentity(applicationName: "Aubade", applicationID: "org.aubade.Aubade",
                                     iconName: "audio-x-generic"),
            events: events)
        self.output = output
        connect()
    }

    private func connect() {
        guard let output, !connected else { return }
        do {
            try output.connect()
            connected = true
        } catch {
            Log.warning("no sound server yet (\(error)); will retry when asked to play")
        }
    }

    /// Returns a failure when the entry's file cannot be opened (PlayerCore then drops it).
    func perform(_ command: OutputCommand, volume: Double) -> Failure? {
        connect()
        guard let output else { return nil }
        switch command {
        case .play(let entry, let position, let playing):
            do {
                let source = try openSource(entry.track, at: position)
                output.setVolume(volume)
                output.play(source, entry: entry.id, title: entry.track.displayTitle,
                            artist: entry.track.artists.first, playing: playing)
            } catch {
                return Failure(entry: entry.id, reason: error.reason)
            }
        case .enqueue(let entry):
            do {
                let source = try openSource(entry.track, at: 0)
                output.enqueue(source, entry: entry.id, title: entry.track.displayTitle,
                               artist: entry.track.artists.first)
            } catch {
                return Failure(entry: entry.id, reason: error.reason)
            }
        case .endOfQueue: output.endOfQueue()
        case .pause: output.pause()
        case .resume: output.resume()
        case .stop: output.stop()
        case .setVolume(let level): output.setVolume(level)
        case .switchCardProfile(let card, let profile): output.switchCardProfile(card: card, profile: profile)
        }
        return nil
    }

    func shutdown() {
        output?.stop()
        output?.shutdown()
    }

    private func openSource(_ track: Track, at position: Microseconds) throws(DecodingError) -> PCMSource {
        let decoder = try MP3Decoder(path: track.path)
        if position > 0 { try decoder.seek(to: position) }
        let format = decoder.format
        return PCMSource(format: AudioOutput.PCMFormat(sampleRate: format.sampleRate, channels: format.channels)) { buffer in
            try decoder.read(into: buffer)
        }
    }
}

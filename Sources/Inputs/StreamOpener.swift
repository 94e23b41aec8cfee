public import AudioOutput
import Dispatch
public import PlayerCore

/// Opens a stream for playing: connects (retrying for ever while the network is down),
/// follows a station's playlist to its first stream that answers, and waits for the first
/// MPEG frame, whose format the output needs. Blocks: runs on the track's decoder queue
/// (`DecodeAhead`), never on the core queue, and gives up as soon as `isCancelled` says the
/// track was dropped (Next, Stop).
///
/// Throws `StreamError` for what is not a network fault: an HTTP error, an HTML page, a
/// format we cannot play, an empty playlist. Those are not retried. An HLS playlist is handed
/// to `HLSStation` (the FFmpeg helper).
public enum StreamOpener {
    /// A playlist that names a playlist that names… stops here.
    static let maximumPlaylistDepth = 3

    /// `startFraction`: for a file over HTTP, begin that far into it (a seek).
    public static func open(_ url: StreamURL, settings: StreamSettings, control: StreamControl,
                            startFraction: Double? = nil,
                            isCancelled: @escaping @Sendable () -> Bool,
                            onStatus: @escaping @Sendable (StreamStatus) -> Void) throws(StreamError) -> PCMSource {
        var candidates: [(url: StreamURL, depth: Int)] = [(url, 0)]
        var lastError: StreamError?
        while !candidates.isEmpty {
            let (candidate, depth) = candidates.removeFirst()
            do throws(StreamError) {
                switch try connect(candidate, settings: settings, control: control, startFraction: startFraction,
                                   hasAlternatives: !candidates.isEmpty, isCancelled: isCancelled, onStatus: onStatus) {
                case .playing(let source):
                    return source
                case .playlist:
                    guard depth < maximumPlaylistDepth else {
                        throw StreamError(url: candidate.redacted, reason: "playlists nested too deep")
                    }
                    let body = try PlaylistFetch.body(of: candidate, settings: settings, isCancelled: isCancelled)
                    let urls: [String]
                    do {
                        urls = try StationPlaylist.urls(in: body)
                    } catch .hls {
                        // An HLS playlist: FFmpeg's HLS demuxer, in the helper, takes it from here.
                        return try HLSStation.open(candidate, settings: settings, control: control,
                                                   isCancelled: isCancelled, onStatus: onStatus)
                    } catch {
                        throw StreamError(url: candidate.redacted, reason: "the playlist names no http(s) stream")
                    }
                    let entries = urls.compactMap { try? StreamURL(validating: $0) }.map { ($0, depth + 1) }
                    candidates = entries + candidates
                }
            } catch {
                if isCancelled() { throw error }
                // A mirror that refuses gives way to the next one.
                lastError = error
            }
        }
        throw lastError ?? StreamError(url: url.redacted, reason: "nothing to play")
    }

    private enum Connected {
        case playing(PCMSource)
        case playlist
    }

    private static func connect(_ url: StreamURL, settings: StreamSettings, control: StreamControl,
                                startFraction: Double?, hasAlternatives: Bool, isCancelled: @escaping @Sendable () -> Bool,
                                onStatus: @escaping @Sendable (StreamStatus) -> Void) throws(StreamError) -> Connected {
        let connection = StationConnection(url, settings: settings, startFraction: startFraction,
                                           hasAlternatives: hasAlternatives, onStatus: onStatus)
        let arrived = DispatchSemaphore(value: 0)
        connection.setWaker { arrived.signal() }
        control.attach(connection)
        connection.start()
        // The answer's Content-Type picks the decoder: libmpg123 here, or the FFmpeg helper.
        var content: StreamContent?
        while content == nil {
            if isCancelled() {
                connection.close()
                throw StreamError(url: url.redacted, reason: "cancelled")
            }
            switch connection.verdict {
            case .waiting: _ = arrived.wait(timeout: .now() + 0.1)
            case .audio(let found): content = found
            case .refused(let reason): throw StreamError(url: url.redacted, reason: reason)
            case .playlist:
                connection.close()
                return .playlist
            case .ended: throw StreamError(url: url.redacted, reason: "the stream ended before any audio")
            }
        }
        let prepare: () throws(StreamError) -> StreamSource.Outcome
        let made: () -> PCMSource
        switch content! {
        case .helperAudio(let formatName):
            let source = try HelperStreamSource(connection: connection, formatName: formatName)
            prepare = { () throws(StreamError) in try source.prepare() }
            made = { helperPCMSource(source) }
        default:
            let source = try StreamSource(connection: connection)
            prepare = { () throws(StreamError) in try source.prepare() }
            made = { pcmSource(source) }
        }
        while true {
            if isCancelled() {
                connection.close()
                throw StreamError(url: url.redacted, reason: "cancelled")
            }
            switch try prepare() {
            case .pcm:
                return .playing(made())
            case .starved:
                _ = arrived.wait(timeout: .now() + 0.1)
            case .ended:
                throw StreamError(url: url.redacted, reason: "the stream ended before any audio")
            case .playlist:
                connection.close()
                return .playlist
            }
        }
    }

    private static func helperPCMSource(_ source: HelperStreamSource) -> PCMSource {
        let format = source.format ?? PCMFormat(sampleRate: 44_100, channels: 2)
        return PCMSource(
            format: format,
            read: { buffer in
                switch try source.read(into: buffer) {
                case .pcm(let count): return count
                case .starved: throw SourceStarved()
                case .ended: return 0
                case .playlist: throw StreamError(url: source.connection.url.redacted, reason: "turned into a playlist")
                }
            },
            setInputWaker: { waker in source.connection.setWaker(waker) },
            takeMarks: { source.takeMarks() })
    }

    private static func pcmSource(_ source: StreamSource) -> PCMSource {
        let format = source.format ?? PCMFormat(sampleRate: 44_100, channels: 2)
        return PCMSource(
            format: format,
            read: { buffer in
                switch try source.read(into: buffer) {
                case .pcm(let count): return count
                case .starved: throw SourceStarved()
                case .ended: return 0
                case .playlist: throw StreamError(url: source.connection.url.redacted, reason: "turned into a playlist")
                }
            },
            setInputWaker: { waker in source.connection.setWaker(waker) },
            takeMarks: { source.takeMarks() })
    }
}

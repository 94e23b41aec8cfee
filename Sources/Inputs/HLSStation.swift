import AudioOutput
import Dispatch
import FFmpegClient
import FFmpegWire
import Handoff
import PlayerCore
#if canImport(Glibc)
import Glibc
#endif

/// An HLS station (a master or media playlist, AAC in MPEG-TS, fMP4 or packed audio), fetched
/// and decoded by the FFmpeg helper: FFmpeg's HLS demuxer picks a variant, refreshes the live
/// playlist, skips a missing segment and plays through a discontinuity; the daemon's CA file
/// and certificate checks apply to every request (`WireURLRequest`).
///
/// What the MP3 stations have applies: a drop (the helper reports a failed request, or a
/// playlist that stopped growing for about three target durations; the helper dying) is
/// retried for ever with `ReconnectBackoff`, each attempt a new helper, audio buffered meanwhile
/// playing on; retries wait while paused (`RetryHolding`); the status goes to `onStatus`;
/// titles (timed ID3) are placed at their sample. Credentials in the URL reach the helper,
/// never a log line (`url.redacted`).
///
/// `read` runs on the track's decoder queue only; `holdRetries` from any thread.
final class HLSStation: RetryHolding, @unchecked Sendable {
    let url: StreamURL
    private let settings: StreamSettings
    private let onStatus: @Sendable (StreamStatus) -> Void
    private let isCancelled: @Sendable () -> Bool

    // The decoder queue's.
    private var channel: HelperChannel?
    private(set) var format: PCMFormat?
    private var produced: Int64 = 0
    private var sessionStart: Int64 = 0
    private var titles = TitleMarks()
    private var readOpen = false
    private var hasPlayed = false

    private struct Shared {
        var backoff = ReconnectBackoff()
        var connectedAt: ContinuousClock.Instant?
        var retryAt: ContinuousClock.Instant?
        var held = false
        var waker: (@Sendable () -> Void)?
    }
    private let shared = LockedState(Shared())

    /// Opening a playlist and its first segment may take this long.
    static let openTimeout = 45.0
    /// One read: FFmpeg waits up to three target durations for a playlist to grow, and 10 s
    /// per request, before it says the station dropped.
    static let readTimeout = 90.0

    private init(url: StreamURL, settings: StreamSettings, isCancelled: @escaping @Sendable () -> Bool,
                 onStatus: @escaping @Sendable (StreamStatus) -> Void) {
        self.url = url
        self.settings = settings
        self.isCancelled = isCancelled
        self.onStatus = onStatus
    }

    deinit { channel?.close() }

    /// Connects (retrying while the network fails) until the first audio's format is known.
    static func open(_ url: StreamURL, settings: StreamSettings, control: StreamControl,
                     isCancelled: @escaping @Sendable () -> Bool,
                     onStatus: @escaping @Sendable (StreamStatus) -> Void) throws(StreamError) -> PCMSource {
        let station = HLSStation(url: url, settings: settings, isCancelled: isCancelled, onStatus: onStatus)
        control.attach(station)
        onStatus(.connecting)
        while true {
            if isCancelled() { throw StreamError(url: url.redacted, reason: "cancelled") }
            if station.retryIsDue() {
                do {
                    try station.connect()
                    return station.pcmSource()
                } catch .dropped(let reason) {
                    station.scheduleRetry(reason)
                } catch .cancelled {
                    throw StreamError(url: url.redacted, reason: "cancelled")
                } catch {
                    // Refused (not an HLS stream, a playlist that names itself, no audio) or a
                    // helper that failed on it before any audio: not worth retrying.
                    throw StreamError(url: url.redacted, reason: error.description)
                }
            }
            usleep(50_000)
        }
    }

    private func pcmSource() -> PCMSource {
        PCMSource(
            format: format ?? PCMFormat(sampleRate: 44_100, channels: 2),
            read: { [self] buffer in try read(into: buffer) },
            setInputWaker: { [self] waker in shared.withLock { $0.waker = waker } },
            takeMarks: { [self] in
                titles.release(upTo: produced, format: format)
                return titles.take()
            })
    }

    // MARK: Reading (decoder queue)

    private func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if channel == nil {
            guard retryIsDue() else { throw SourceStarved() }
            do {
                try connect()
            } catch .cancelled {
                throw StreamError(url: url.redacted, reason: "cancelled")
            } catch {
                // Once it has played, every failure is an outage to wait out.
                scheduleRetry(error.description)
                throw SourceStarved()
            }
        }
        guard let channel, let format else { throw SourceStarved() }
        do throws(HelperError) {
            if !readOpen {
                try channel.send(WireFrame(.read) { $0.u32(UInt32(buffer.count - buffer.count % format.bytesPerFrame)) })
                readOpen = true
            }
            while true {
                switch try channel.receive(timeout: Self.readTimeout, isCancelled: isCancelled) {
                case .title(let title):
                    titles.add(LiveTitle(text: title.text, artist: title.artist.isEmpty ? nil : title.artist, title: title.title),
                               at: sessionStart + title.byteOffset, format: format)
                case .pcm(let bytes):
                    readOpen = false
                    guard bytes.count <= buffer.count, bytes.count % format.bytesPerFrame == 0 else {
                        throw HelperError.broken("\(bytes.count) bytes of PCM for \(buffer.count) asked")
                    }
                    bytes.withUnsafeBytes { buffer.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
                    produced += Int64(bytes.count)
                    return bytes.count
                case .end:
                    // A finished (not live) playlist: the track is over.
                    readOpen = false
                    return 0
                default:
                    throw HelperError.broken("an answer to read that is not PCM")
                }
            }
        } catch .cancelled {
            throw StreamError(url: url.redacted, reason: "cancelled")
        } catch {
            self.channel?.close()
            self.channel = nil
            readOpen = false
            scheduleRetry(error.description)
            throw SourceStarved()
        }
    }

    /// A new helper session on the URL, up to the format of its first audio.
    private func connect() throws(HelperError) {
        let helper = try HelperChannel()
        do throws(HelperError) {
            // A reconnect starts at the live edge: the segments before it were heard already.
            try helper.send(WireURLRequest(url: url.text, caFile: settings.caFile, userAgent: Self.userAgent,
                                           atLiveEdge: hasPlayed).frame)
            guard case .format(let wire) = try helper.receive(timeout: Self.openTimeout, isCancelled: isCancelled) else {
                throw HelperError.broken("the answer to openURL was not a format")
            }
            let new = PCMFormat(sampleRate: wire.sampleRate, channels: wire.channels)
            if let format, format != new {
                throw HelperError.refused("the station changed its format (\(format.sampleRate) Hz → \(new.sampleRate) Hz)")
            }
            format = new
        } catch {
            helper.close()
            throw error
        }
        channel = helper
        sessionStart = produced
        readOpen = false
        hasPlayed = true
        shared.withLock { $0.connectedAt = .now }
        onStatus(.connected(station: nil, live: true))
    }

    static let userAgent = "Aubade/1 (music service)"

    // MARK: Retrying (any thread)

    private func retryIsDue() -> Bool {
        shared.withLock { state in
            guard let at = state.retryAt else { return true }
            return !state.held && ContinuousClock.now >= at
        }
    }

    private func scheduleRetry(_ reason: String) {
        let (delay, attempt) = shared.withLock { state -> (Double, Int) in
            if let connectedAt = state.connectedAt, ContinuousClock.now - connectedAt > .seconds(ReconnectBackoff.steadyAfter) {
                state.backoff.reset()
            }
            state.connectedAt = nil
            let delay = state.backoff.nextDelay()
            state.retryAt = .now + .milliseconds(Int(delay * 1000))
            return (delay, state.backoff.attempt)
        }
        onStatus(.reconnecting(attempt: attempt, delay: Microseconds(delay * 1_000_000), reason: reason))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { [weak self] in self?.wakeIfDue() }
    }

    private func wakeIfDue() {
        let waker = shared.withLock { state -> (@Sendable () -> Void)? in
            guard !state.held else { return nil }
            return state.waker
        }
        waker?()
    }

    func holdRetries(_ hold: Bool) {
        shared.withLock { $0.held = hold }
        if !hold { wakeIfDue() }
    }
}

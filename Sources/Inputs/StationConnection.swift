import CurlKit
import Dispatch
import Handoff
import PlayerCore

/// The connection to one stream URL, kept up for as long as it is wanted.
///
/// Threads: libcurl's events arrive on the transfer thread; `pull` is called on the track's
/// decoder queue; `close` and `holdRetries` from anywhere. Shared state sits in one mutex that
/// is never held while calling into a transfer or out to a callback.
///
/// A drop (closed, reset, stalled, refused, DNS failure) is retried with `ReconnectBackoff`
/// for ever; what was buffered plays on meanwhile, so a short outage is not heard. Content that
/// is not MPEG audio (an HTML page, a 404) is refused once, never retried.
final class StationConnection: Sendable {
    /// What the reader gets.
    enum Pull {
        /// `afresh`: the first bytes of a new connection (a reconnect), which starts anywhere
        /// in the station's stream, mid-frame: the decoder must start over on them.
        case pieces([ICYDemuxer.Piece], afresh: Bool)
        /// Nothing now; the waker is called when there is.
        case starved
        /// A finite file was delivered completely.
        case ended
        /// Not MPEG audio: the stream cannot be played.
        case refused(String)
        /// The URL is a playlist (a station's .pls/.m3u): follow it instead.
        case playlist
    }

    /// One HTTP response being read, and the ICY demuxer for its body (reader side only).
    fileprivate final class Leg: @unchecked Sendable {
        // `demuxer` and `ended` are read and changed with the connection's mutex held.
        let transfer: HTTPTransfer
        var demuxer: ICYDemuxer?
        var ended = false
        init(_ transfer: HTTPTransfer) { self.transfer = transfer }
    }

    private struct State {
        var legs: [Leg] = []
        var backoff = ReconnectBackoff()
        var connectedAt: ContinuousClock.Instant?
        /// Bumped by every scheduled retry and by close: a retry that fires late is dropped.
        var retryGeneration = 0
        var retriesHeld = false
        var retryDue = false
        var closed = false
        var refused: String?
        var isPlaylist = false
        var finished = false
        var isLive = true
        var acceptsRanges = false
        /// MPEG audio came from this URL once: from then on a refusal (icecast answers 404 while
        /// a restarted station's source is not back yet) is an outage to wait out, not an error.
        var hasPlayed = false
        var bodyBytes: Int64 = 0
        /// What the first answer with audio held (MP3, or a format for the FFmpeg helper).
        var content: StreamContent?
        var station: String?
        /// The whole file's size (a file over HTTP), from the first answer.
        var fileSize: Int64?
        /// Where in the file to begin (a seek), as a fraction of its size; used up by the first answer.
        var startFraction: Double?
        var waker: (@Sendable () -> Void)?
        /// The leg the reader last got bytes from.
        var lastRead: ObjectIdentifier?
    }

    let url: StreamURL
    private let hasAlternatives: Bool
    private let settings: StreamSettings
    private let onStatus: @Sendable (StreamStatus) -> Void
    private let state = LockedState(State())

    /// `startFraction`: begin that far into a file over HTTP (a seek), when its server takes ranges.
    /// `hasAlternatives`: a mirror of a station's playlist with others after it; if it fails
    /// before it ever played, it gives way to the next instead of being retried.
    init(_ url: StreamURL, settings: StreamSettings, startFraction: Double? = nil, hasAlternatives: Bool = false,
         onStatus: @escaping @Sendable (StreamStatus) -> Void) {
        self.url = url
        self.settings = settings
        self.onStatus = onStatus
        self.hasAlternatives = hasAlternatives
        if let startFraction, startFraction > 0, startFraction < 1 {
            state.withLock { $0.startFraction = startFraction }
        }
    }

    /// For the source: a file's size once known, whether it can be read from any byte, and
    /// whether it is read from its start (only then does the decoder see its length header).
    var fileFacts: (size: Int64?, seekable: Bool, fromStart: Bool) {
        state.withLock { ($0.fileSize, $0.acceptsRanges, $0.bodyBytes == 0) }
    }

    func report(_ status: StreamStatus) { onStatus(status) }

    deinit { close() }

    var station: String? { state.withLock { $0.station } }

    /// What the connection knows so far, without reading its body: the opener waits on it to
    /// pick the decoder (libmpg123 for MP3, the FFmpeg helper for the rest).
    enum Verdict: Equatable {
        case waiting
        case audio(StreamContent)
        case refused(String)
        case playlist
        case ended
    }

    var verdict: Verdict {
        state.withLock { state in
            if let refused = state.refused { return .refused(refused) }
            if state.isPlaylist { return .playlist }
            if let content = state.content { return .audio(content) }
            return state.finished ? .ended : .waiting
        }
    }
    var isLive: Bool { state.withLock { $0.isLive } }

    func setWaker(_ waker: @escaping @Sendable () -> Void) {
        state.withLock { $0.waker = waker }
    }

    func start() {
        onStatus(.connecting)
        connect()
    }

    /// Stops for good: the transfers are cancelled, no retry follows.
    func close() {
        let legs = state.withLock { state -> [Leg] in
            state.closed = true
            state.retryGeneration += 1
            defer { state.legs = [] }
            return state.legs
        }
        for leg in legs { leg.transfer.cancel() }
    }

    /// While paused, a dropped station is not called again; on release a due retry runs now.
    func holdRetries(_ hold: Bool) {
        let retryNow = state.withLock { state -> Bool in
            state.retriesHeld = hold
            guard !hold, state.retryDue else { return false }
            state.retryDue = false
            return true
        }
        if retryNow { connect() }
    }

    // MARK: - Reader (decoder queue)

    func pull(into scratch: inout [UInt8]) -> Pull {
        while true {
            let (leg, verdict) = state.withLock { state -> (Leg?, Pull?) in
                if let refused = state.refused { return (nil, .refused(refused)) }
                if state.isPlaylist { return (nil, .playlist) }
                return (state.legs.first, nil)
            }
            if let verdict { return verdict }
            guard let leg else { return finishedOrStarved() }
            // No demuxer: no answer yet — or none ever (a refused connection), which ends the
            // leg with nothing in it, so it gives way below like a drained one.
            if var demuxer = state.withLock({ _ in leg.demuxer }) {
                let count = scratch.withUnsafeMutableBytes { leg.transfer.read(into: $0) }
                if count > 0 {
                    let pieces = demuxer.split(scratch[0..<count])
                    let afresh = state.withLock { state -> Bool in
                        leg.demuxer = demuxer
                        defer { state.lastRead = ObjectIdentifier(leg) }
                        return state.lastRead != nil && state.lastRead != ObjectIdentifier(leg)
                    }
                    return .pieces(pieces, afresh: afresh)
                }
            }
            // An ended leg that is drained gives way to the next one (the reconnect).
            let drained = state.withLock { state -> Bool in
                guard state.legs.first === leg, leg.ended,
                      leg.demuxer == nil || leg.transfer.bufferedByteCount == 0 else { return false }
                state.legs.removeFirst()
                return true
            }
            if !drained { return .starved }
        }
    }

    private func finishedOrStarved() -> Pull {
        state.withLock { $0.finished ? .ended : .starved }
    }

    // MARK: - Connecting (any thread)

    private func connect() {
        var request = HTTPRequest(url: url.text)
        request.headers = ["Icy-MetaData: 1"]
        request.caFile = settings.caFile
        request.connectTimeout = settings.connectTimeout
        request.stallTimeout = settings.stallTimeout
        request.userAgent = "Aubade/1 (music service)"
        let resumeAt: Int64? = state.withLock { state in
            (!state.isLive && state.acceptsRanges && state.bodyBytes > 0) ? state.bodyBytes : nil
        }
        request.rangeStart = resumeAt
        let legBox = LegBox()
        let transfer = HTTPTransfer(request, bufferCapacity: settings.bufferCapacity) { [weak self] event in
            guard let self, let leg = legBox.leg else { return }
            self.handle(event, of: leg)
        }
        let leg = Leg(transfer)
        legBox.leg = leg
        let started = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            state.legs.append(leg)
            return true
        }
        if started { transfer.start() }
    }

    private func handle(_ event: HTTPTransfer.Event, of leg: Leg) {
        switch event {
        case .head(let head):
            accept(head, of: leg)
        case .bytesAvailable:
            wake()
        case .ended(let result):
            ended(leg, result)
        }
    }

    private func accept(_ head: HTTPResponseHead, of leg: Leg) {
        let content = StreamContent(status: head.status, contentType: head["content-type"], url: head.effectiveURL)
        let metaint = head["icy-metaint"]
        let demuxer = ICYDemuxer(header: metaint)
        let name = head["icy-name"].map(Self.cleanedHeaderText).flatMap { $0.isEmpty ? nil : $0 }
        enum Verdict { case connected(StreamStatus), refused, again, retry(RetryPlan) }
        let verdict = state.withLock { state -> Verdict in
            guard !state.closed, state.legs.contains(where: { $0 === leg }) else { return .refused }
            switch content {
            case .refused(let reason):
                // Once it has played, any refusal is an outage to wait out.
                if state.hasPlayed {
                    state.legs.removeAll { $0 === leg }
                    return .retry(Self.retryPlan(&state, reason: reason))
                }
                state.refused = reason
                return .refused
            case .playlist:
                state.isPlaylist = true
                return .refused
            case .mpegAudio, .helperAudio:
                guard demuxer != nil else {
                    state.refused = "bad icy-metaint \"\(Self.cleanedHeaderText(metaint ?? ""))\""
                    return .refused
                }
                let firstAnswer = !state.hasPlayed
                if firstAnswer {
                    // A length and no ICY interval: a file (a podcast), not a station.
                    state.isLive = head.contentLength == nil || metaint != nil
                    state.acceptsRanges = head["accept-ranges"]?.lowercased() == "bytes"
                    if !state.isLive, let length = head.contentLength { state.fileSize = state.bodyBytes + length }
                    if let fraction = state.startFraction, !state.isLive, state.acceptsRanges, let size = state.fileSize {
                        // A seek: ask again from that byte (the decoder finds the next frame).
                        state.startFraction = nil
                        state.bodyBytes = Int64(Double(size) * fraction)
                        state.legs.removeAll { $0 === leg }
                        return .again
                    }
                }
                state.connectedAt = .now
                state.hasPlayed = true
                if state.content == nil { state.content = content }
                state.station = name ?? state.station
                leg.demuxer = demuxer
                return .connected(.connected(station: state.station, live: state.isLive))
            }
        }
        switch verdict {
        case .connected(let status): onStatus(status)
        case .refused: leg.transfer.cancel()
        case .again:
            leg.transfer.cancel()
            connect()
        case .retry(let plan):
            leg.transfer.cancel()
            onStatus(.reconnecting(attempt: plan.attempt, delay: Microseconds(plan.seconds * 1_000_000), reason: plan.reason))
            scheduleRetry(after: plan.seconds)
        }
        wake()
    }

    /// When and why the next attempt is made.
    private struct RetryPlan {
        var seconds: Double
        var attempt: Int
        var reason: String
    }

    /// Counts a drop and picks the wait before the next attempt (with the state's lock held).
    private static func retryPlan(_ state: inout State, reason: String) -> RetryPlan {
        // A connection that played steadily starts the count over; each drop ends one.
        if let connectedAt = state.connectedAt, ContinuousClock.now - connectedAt > .seconds(ReconnectBackoff.steadyAfter) {
            state.backoff.reset()
        }
        state.connectedAt = nil
        let seconds = state.backoff.nextDelay()
        return RetryPlan(seconds: seconds, attempt: state.backoff.attempt, reason: reason)
    }

    private func ended(_ leg: Leg, _ result: Result<Void, TransferFailure>) {
        let plan = state.withLock { state -> RetryPlan? in
            leg.ended = true
            state.bodyBytes += leg.transfer.bytesReceived
            guard !state.closed, state.refused == nil, !state.isPlaylist else { return nil }
            // Before it ever played, what cannot get better by waiting is an error: too many
            // redirects, a certificate that does not verify, a hostile answer; and a mirror
            // with others behind it gives way at its first failure.
            if !state.hasPlayed, case .failure(let failure) = result,
               hasAlternatives || [.tooManyRedirects, .tls, .other].contains(failure.kind) {
                state.refused = failure.message
                return nil
            }
            // A file ends when it is complete — or when it breaks and the server cannot
            // resume it where it broke (starting over would repeat what was heard).
            if !state.isLive, result.isSuccess || !state.acceptsRanges {
                state.finished = true
                return nil
            }
            let reason: String
            switch result {
            case .success: reason = "the server closed the connection"
            case .failure(let failure): reason = failure.message
            }
            return Self.retryPlan(&state, reason: reason)
        }
        if let plan {
            onStatus(.reconnecting(attempt: plan.attempt, delay: Microseconds(plan.seconds * 1_000_000), reason: plan.reason))
            scheduleRetry(after: plan.seconds)
        }
        wake()
    }

    private func scheduleRetry(after seconds: Double) {
        let generation = state.withLock { state -> Int? in
            guard !state.closed else { return nil }
            state.retryGeneration += 1
            return state.retryGeneration
        }
        guard let generation else { return }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { [weak self] in self?.retryDue(generation) }
    }

    private func retryDue(_ generation: Int) {
        let now = state.withLock { state -> Bool in
            guard !state.closed, state.retryGeneration == generation else { return false }
            if state.retriesHeld {
                state.retryDue = true
                return false
            }
            return true
        }
        if now { connect() }
    }

    private func wake() {
        state.withLock { $0.waker }?()
    }

    /// A header value as we show it: no control characters, at most 200 characters.
    static func cleanedHeaderText(_ text: String) -> String {
        let scalars = text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.prefix(200)
        return String(String.UnicodeScalarView(scalars)).trimmingASCIISpaces
    }
}

/// Lets a transfer's event handler find its leg, which is made after the transfer.
private final class LegBox: @unchecked Sendable {
    // Set once, before the transfer starts (which is what makes events possible).
    var leg: StationConnection.Leg?
}

private extension Result {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}

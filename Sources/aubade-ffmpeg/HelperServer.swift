import FFmpegKit
import FFmpegWire

/// Answers the daemon's requests in turn until it closes the socket (docs/ffmpeg-helper.md).
///
/// At most one decoding session at a time: the daemon starts one helper per playing item, and
/// one more for reading tags and covers while it queues files.
final class HelperServer {
    private let socket: WireSocket
    private let fault: HelperFault
    private var session: DecodeSession?
    private var policy: HLSPolicy?
    private var sentBytes = 0

    /// The most PCM one `read` may ask for.
    static let readLimit = 1 << 20

    init(socket: WireSocket, fault: HelperFault) {
        self.socket = socket
        self.fault = fault
    }

    /// Returns the exit status: 0 when the daemon closed the socket, 1 when it broke the protocol.
    func run() -> Int32 {
        while true {
            do throws(WireError) {
                let request = try socket.receive()
                try handle(request)
            } catch .closed {
                return 0
            } catch {
                // A daemon that breaks the protocol gets no more answers.
                return 1
            }
        }
    }

    private func handle(_ request: WireFrame) throws(WireError) {
        switch request.kind {
        case .openFile:
            let descriptor = socket.takeReceivedDescriptor()
            let hint = try formatName(request)
            try answerOpening { () throws(HelperFailure) in
                guard let descriptor else { throw HelperFailure("no file was passed") }
                let source = FileByteSource(descriptor: descriptor, randomAccess: false)
                let input: MediaInput
                do throws(FFmpegError) { input = try MediaInput(source: source, formatName: hint) } catch {
                    throw HelperFailure(unreadable: error, formatName: hint)
                }
                return try DecodeSession(input: input, live: false)
            }
        case .openStream:
            let hint = try formatName(request)
            let source = FedByteSource(socket: socket)
            try answerOpening { () throws(HelperFailure) in
                let input: MediaInput
                do throws(FFmpegError) { input = try MediaInput(source: source, formatName: hint, bufferSize: 4096) } catch {
                    throw HelperFailure(source.failure ?? "not \(hint ?? "audio") that can be read (\(error.message))")
                }
                let session = try DecodeSession(input: input, live: true)
                source.heldPCMBytes = { [weak session] in session?.heldBytes ?? 0 }
                return session
            }
        case .openURL:
            let url = try WireURLRequest(request)
            let policy = HLSPolicy(caFile: url.caFile, userAgent: url.userAgent)
            self.policy = policy
            try answerOpening { () throws(HelperFailure) in
                let input: MediaInput
                do throws(FFmpegError) {
                    input = try MediaInput(url: url.url, policy: policy,
                                           formatOptions: HLSPolicy.formatOptions + (url.atLiveEdge ? [("live_start_index", "-1")] : []))
                } catch {
                    throw HelperFailure("cannot open the stream (\(error.message))", isNetwork: !error.isInvalidData)
                }
                do throws(HelperFailure) {
                    let session = try DecodeSession(input: input, live: true) { [weak policy] in policy?.takeSegmentTags() ?? [] }
                    session.isLiveURL = !input.hasEnd
                    return session
                } catch {
                    // Say why the demuxer found nothing when a request was refused on the way.
                    guard !policy.lastRefusal.isEmpty else { throw error }
                    throw HelperFailure("\(error.message): \(policy.lastRefusal)")
                }
            }
        case .read:
            var reader = request.reader
            let limit = Int(min(try reader.u32(), UInt32(Self.readLimit)))
            try answerRead(limit: limit)
        case .seek:
            guard let session else { return try socket.send(.text(.failure, "nothing is open")) }
            let target = try request.integer()
            switch Result(catching: { () throws(HelperFailure) in try session.seek(to: target) }) {
            case .success(let at): try socket.send(.integer(.seeked, at))
            case .failure(let failure):
                self.session = nil
                try socket.send(.text(.failure, failure.message))
            }
        case .probe, .cover:
            let descriptor = socket.takeReceivedDescriptor()
            let hint = try formatName(request)
            guard let descriptor else { return try socket.send(.text(.failure, "no file was passed")) }
            let answer = Result { () throws(HelperFailure) -> WireFrame in
                if request.kind == .probe { return try TrackProbe.facts(descriptor: descriptor, formatName: hint).frame }
                guard let cover = try TrackProbe.cover(descriptor: descriptor, formatName: hint) else { return WireFrame(.noCover) }
                return WireFrame(.coverArt) { $0.string(cover.mimeType); $0.data(cover.data) }
            }
            switch answer {
            case .success(let frame): try socket.send(frame)
            case .failure(let failure): try socket.send(.text(.failure, failure.message))
            }
        case .thumbnail:
            let descriptor = socket.takeReceivedDescriptor()
            let thumbnail = try WireThumbnailRequest(request)
            guard let descriptor else { return try socket.send(.text(.failure, "no file was passed")) }
            switch Result(catching: { () throws(HelperFailure) in try Thumbnailer.thumbnail(descriptor: descriptor, request: thumbnail) }) {
            case .success(let jpeg?): try socket.send(WireFrame(.coverArt) { $0.string("image/jpeg"); $0.data(jpeg) })
            case .success(nil): try socket.send(WireFrame(.noCover))
            case .failure(let failure): try socket.send(.text(.failure, failure.message))
            }
        case .input, .inputEnd:
            throw .malformed("input that was not asked for")
        default:
            throw .malformed("\(request.kind) is an answer, not a request")
        }
    }

    private func formatName(_ request: WireFrame) throws(WireError) -> String? {
        let name = try request.text()
        return name.isEmpty ? nil : name
    }

    private func answerOpening(_ open: () throws(HelperFailure) -> DecodeSession) throws(WireError) {
        session = nil
        sentBytes = 0
        switch Result(catching: open) {
        case .success(let opened):
            session = opened
            try socket.send(opened.format.frame)
        case .failure(let failure):
            try socket.send(.text(failure.isNetwork ? .dropped : .failure, failure.message))
        }
    }

    private func answerRead(limit: Int) throws(WireError) {
        guard let session else { return try socket.send(.text(.failure, "nothing is open")) }
        let outcome = Result { () throws(HelperFailure) in try session.read(limit: limit) }
        for title in session.takeTitles() { try socket.send(title.frame) }
        switch outcome {
        case .success(.pcm(let bytes)):
            policy?.audioArrived()
            try socket.send(WireFrame(.pcm, Array(bytes)))
            sentBytes += bytes.count
            fault.check(sentBytes: sentBytes)
        case .success(.end):
            // A live HLS playlist that ends has stopped growing (or its server went away):
            // a dropped connection, for the daemon to reconnect. A finished one just ends.
            if session.isLiveURL {
                self.session = nil
                try socket.send(.text(.dropped, "the playlist stopped growing"))
            } else {
                try socket.send(WireFrame(.end))
            }
        case .failure(let failure):
            self.session = nil
            try socket.send(.text(failure.isNetwork ? .dropped : .failure, failure.message))
        }
    }
}

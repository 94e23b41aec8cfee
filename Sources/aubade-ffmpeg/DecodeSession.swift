import FFmpegKit
import FFmpegWire

/// One input being decoded to the daemon's PCM (interleaved signed 16-bit, the first frame's
/// rate and channels throughout): a file, a station's fed bytes or an HLS URL.
///
/// Gapless: FFmpeg drops the encoder's priming (the MP4 edit list, iTunSMPB); the end is cut
/// to the exact length the container gives (`GaplessLength`), so the track has exactly the
/// samples the encoder was given.
final class DecodeSession {
    /// What a `read` produced besides PCM.
    enum Outcome {
        case pcm(ArraySlice<UInt8>)
        case end
    }

    let format: WireFormat
    private let input: MediaInput
    private let audio: MediaStream
    private let decoder: AudioStreamDecoder
    private let resampler: Resampler
    private let packet: Packet
    private let frame: Frame
    /// Streams deliver as soon as there is PCM (the next packet may need input that is not
    /// there yet); files fill the whole request.
    private let live: Bool
    private let titles: TitleTracker
    private var queue = PCMQueue()
    private var ended = false
    /// Frames from the track's start up to the end of `queue`.
    private var position: Int64 = 0
    /// After a seek: frames before this one are decoded but dropped (the seek lands on a
    /// packet before the wanted sample).
    private var dropBefore: Int64?
    /// PCM bytes the session produced in all (where titles are placed).
    private(set) var producedBytes: Int64 = 0
    private var failuresInARow = 0

    /// Damaged packets skipped in a row before the input counts as broken.
    static let failureLimit = 64
    /// A seek starts decoding this many frames early: AAC needs its previous frame to decode one.
    static let preroll: Int64 = 4096

    /// `segmentTags`: an HLS station's packed-audio segments' leading tags (`HLSPolicy`).
    init(input: MediaInput, live: Bool, segmentTags: (() -> [SegmentTag])? = nil) throws(HelperFailure) {
        self.input = input
        self.live = live
        // FFmpeg's choice needs a known rate and channel count, which ADTS and a station's
        // stream only tell once decoding starts: then the first audio stream.
        let streams = input.streams
        guard let stream = input.bestAudioStream().flatMap({ index in streams.first { $0.index == index } })
                ?? streams.first(where: { $0.kind == .audio }) else {
            throw HelperFailure("no audio stream in it")
        }
        let index = stream.index
        audio = stream
        // Timed ID3 beside the audio: an HLS station's titles (`TitleTracker.timedMetadata`).
        let timedMetadata = input.streams.filter { $0.codecName == "timed_id3" }.map(\.index)
        input.discardAll(except: Set([index] + timedMetadata))
        do {
            decoder = try AudioStreamDecoder(input: input, stream: index)
            packet = try Packet()
            frame = try Frame()
        } catch {
            throw HelperFailure("cannot decode \(stream.codecName) (\(error))")
        }
        titles = TitleTracker(audio: stream, timedMetadata: Set(timedMetadata))
        titles.segmentTags = segmentTags
        // A station's first title is in its header (an Ogg stream's comments): it starts at once.
        if live { titles.chainedStreamTags(input.metadata + stream.metadata, fromPacket: false) }
        // The first frame tells the PCM's format (HE-AAC decodes to twice the container's rate).
        var first: (rate: Int, channels: Int)?
        var early: [UInt8] = []
        var pending: Resampler?
        for _ in 0..<4096 where first == nil {
            guard let decoded = try Self.nextFrame(input: input, decoder: decoder, packet: packet, frame: frame,
                                                   audio: index, titles: titles, failures: &failuresInARow) else { break }
            if !decoded { continue }
            let channels = frame.channels <= 8 ? max(frame.channels, 1) : 2
            first = (frame.sampleRate, channels)
            let resampler = Resampler(sampleRate: frame.sampleRate, channels: channels)
            do { try resampler.convert(frame, appendingTo: &early) } catch { throw HelperFailure("cannot convert the audio (\(error))") }
            pending = resampler
        }
        guard let first, first.rate > 0, let pending else { throw HelperFailure("no audio in it") }
        resampler = pending
        let exact = live ? nil : GaplessLength.frames(input: input, stream: stream, outputRate: first.rate)
        format = WireFormat(sampleRate: first.rate, channels: first.channels, exactFrames: exact, codecName: decoder.codecName)
        append(early)
    }

    private var bytesPerFrame: Int { format.channels * 2 }

    /// A live HLS station: its end is a drop, not the end of the track.
    var isLiveURL = false

    /// PCM decoded and not yet sent.
    var heldBytes: Int { queue.count }

    /// Decodes until `limit` bytes are ready (a stream: until any are), then hands them over.
    func read(limit: Int) throws(HelperFailure) -> Outcome {
        let wanted = max(bytesPerFrame, limit - limit % bytesPerFrame)
        while !ended, live ? queue.isEmpty : queue.count < wanted {
            try decodeMore()
        }
        if queue.isEmpty { return .end }
        return .pcm(queue.take(wanted))
    }

    /// Titles found since the last call, placed in the session's PCM.
    func takeTitles() -> [WireTitle] { titles.take() }

    /// Moves to `microseconds` from the start; returns where the next PCM starts.
    func seek(to microseconds: Int64) throws(HelperFailure) -> Int64 {
        guard !live else { throw HelperFailure("a station cannot seek") }
        let rate = Int64(format.sampleRate)
        var target = max(0, microseconds / 1_000_000 * rate + microseconds % 1_000_000 * rate / 1_000_000)
        if let exact = format.exactFrames { target = min(target, exact) }
        queue.removeAll()
        decoder.flush()
        resampler.reset()
        ended = false
        position = target
        if let exact = format.exactFrames, target >= exact {
            ended = true
            return microsecondsOf(target)
        }
        let start = audio.startTime ?? 0
        let early = max(0, target - Self.preroll)
        let timestamp = start + timeBaseUnits(ofFrames: early)
        do { try input.seek(stream: audio.index, to: timestamp) } catch { throw HelperFailure("cannot seek (\(error))") }
        dropBefore = target
        return microsecondsOf(target)
    }

    // MARK: Decoding

    private func decodeMore() throws(HelperFailure) {
        guard let decoded = try Self.nextFrame(input: input, decoder: decoder, packet: packet, frame: frame,
                                               audio: audio.index, titles: titles, failures: &failuresInARow) else {
            ended = true
            return
        }
        guard decoded else { return }
        var converted: [UInt8] = []
        do { try resampler.convert(frame, appendingTo: &converted) } catch { throw HelperFailure("cannot convert the audio (\(error))") }
        titles.audioFrame(seconds: frame.presentationTime.map { audio.seconds($0) }, startByte: producedBytes,
                          frames: converted.count / bytesPerFrame, rate: format.sampleRate, bytesPerFrame: bytesPerFrame)
        if let dropBefore {
            // Where this frame starts, from its timestamp; without one, where the seek aimed.
            let frameStart = frame.presentationTime.map { frames(ofTimeBaseUnits: $0 - (audio.startTime ?? 0)) } ?? dropBefore
            let drop = Int(max(0, min(dropBefore - frameStart, Int64(converted.count / bytesPerFrame))))
            if drop > 0 { converted.removeFirst(drop * bytesPerFrame) }
            if frameStart + Int64(drop) >= dropBefore || converted.count > 0 { self.dropBefore = nil }
            if converted.isEmpty { return }
        }
        append(converted)
    }

    private func append(_ bytes: [UInt8]) {
        var bytes = bytes
        if let exact = format.exactFrames {
            let room = max(0, exact - position)
            if Int64(bytes.count / bytesPerFrame) >= room {
                bytes.removeLast(bytes.count - Int(room) * bytesPerFrame)
                ended = true
            }
        }
        position += Int64(bytes.count / bytesPerFrame)
        producedBytes += Int64(bytes.count)
        titles.producedBytes = producedBytes
        titles.producedFrames = position
        queue.append(bytes)
    }

    /// The next decoded frame into `frame`: true when one came, false when a packet gave none
    /// yet (or was not audio), nil at the end of the input. Damaged packets are skipped.
    private static func nextFrame(input: MediaInput, decoder: AudioStreamDecoder, packet: Packet, frame: Frame,
                                  audio: Int, titles: TitleTracker, failures: inout Int) throws(HelperFailure) -> Bool? {
        do {
            if try decoder.receive(into: frame) { return true }
        } catch {
            try skip(error, failures: &failures)
            return false
        }
        let more: Bool
        do {
            more = try input.read(into: packet)
        } catch {
            if error.isInvalidData {
                try skip(error, failures: &failures)
                return false
            }
            throw HelperFailure(reading: error)
        }
        guard more else {
            // The end: what the decoder still holds comes out.
            try? decoder.send(nil)
            return (try? decoder.receive(into: frame)) == true ? true : nil
        }
        guard packet.streamIndex == audio else {
            let timeBase = input.streams.first { $0.index == packet.streamIndex }?.timeBase ?? (1, 90_000)
            titles.timedMetadata(packet, timeBase: timeBase)
            return false
        }
        titles.collectSegmentTags()
        // Vorbis flags a chained stream's new comments on its first packet; Opus only on the
        // stream (and earlier than its audio would place them for Vorbis): each its way.
        let flagged = input.takeMetadataUpdate(stream: audio)
        if let update = packet.metadataUpdate {
            titles.chainedStreamTags(update, fromPacket: true)
        } else if let flagged {
            titles.chainedStreamTags(flagged, fromPacket: false)
        }
        do {
            try decoder.send(packet)
            failures = 0
        } catch {
            try skip(error, failures: &failures)
        }
        return false
    }

    private static func skip(_ error: FFmpegError, failures: inout Int) throws(HelperFailure) {
        failures += 1
        if failures > failureLimit { throw HelperFailure("decoding failed (\(error))") }
    }

    // MARK: Time

    private func microsecondsOf(_ frames: Int64) -> Int64 {
        let rate = Int64(format.sampleRate)
        return frames / rate * 1_000_000 + frames % rate * 1_000_000 / rate
    }

    private func timeBaseUnits(ofFrames frames: Int64) -> Int64 {
        let (numerator, denominator) = (Int64(audio.timeBase.numerator), Int64(audio.timeBase.denominator))
        guard numerator > 0 else { return 0 }
        return frames * denominator / (Int64(format.sampleRate) * numerator)
    }

    private func frames(ofTimeBaseUnits units: Int64) -> Int64 {
        let (numerator, denominator) = (Int64(audio.timeBase.numerator), Int64(audio.timeBase.denominator))
        guard denominator > 0 else { return 0 }
        return units * Int64(format.sampleRate) * numerator / denominator
    }
}

/// Why a request failed, in the words the daemon logs.
struct HelperFailure: Error {
    var message: String
    /// A network input failed (HLS): the daemon reconnects rather than giving up.
    var isNetwork = false

    init(_ message: String, isNetwork: Bool = false) {
        self.message = message
        self.isNetwork = isNetwork
    }

    init(reading error: FFmpegError) {
        self.init("reading failed (\(error.message))", isNetwork: !error.isInvalidData)
    }
}

import FFmpegKit
import FFmpegWire

/// Tags, length and cover of a file, from its header only: an MP4's `moov` atom (wherever it
/// sits; FFmpeg skips the audio to it), an ADTS file's ID3 tag and first frames.
enum TrackProbe {
    /// The reads of a probe go through a small buffer: a header of a few KiB costs a few KiB.
    static let bufferSize = 8 * 1024
    /// Covers bigger than this are not sent (the daemon caps its cover cache the same way).
    static let coverLimit = 16 * 1024 * 1024

    static func facts(descriptor: Int32, formatName: String?) throws(HelperFailure) -> TrackFacts {
        let source = FileByteSource(descriptor: descriptor, randomAccess: true)
        let input = try open(source, formatName)
        // ADTS has no header: its rate and (estimated) length come from its first frames.
        let isRaw = !input.formatName.contains("mp4")
        if isRaw {
            do { try input.findStreamInfo() } catch { throw HelperFailure("not an AAC file (\(error.message))") }
        }
        guard let index = input.bestAudioStream(), let stream = input.streams.first(where: { $0.index == index }) else {
            throw HelperFailure("no audio stream in it")
        }
        guard stream.sampleRate > 0 else { throw HelperFailure("no audio in it (\(stream.codecName) without a sample rate)") }
        var length: Int64?
        var estimate = false
        if !isRaw, let frames = GaplessLength.frames(input: input, stream: stream, outputRate: stream.sampleRate) {
            length = frames * 1_000_000 / Int64(stream.sampleRate)
        } else if let duration = stream.duration {
            length = Int64(stream.seconds(duration) * 1_000_000)
            estimate = isRaw
        } else if let duration = input.durationMicroseconds {
            length = duration
            estimate = true
        }
        let tags = (input.metadata + stream.metadata).map { TrackFacts.Tag($0.key, $0.value) }
        return TrackFacts(codecName: stream.codecName, sampleRate: stream.sampleRate, channels: stream.channels,
                          lengthMicroseconds: length, lengthIsEstimate: estimate,
                          hasCover: input.streams.contains { $0.kind == .attachedPicture }, bytesRead: source.bytesRead, tags: tags,
                          bitsPerSample: stream.bitsPerCodedSample > 0 ? stream.bitsPerCodedSample : nil)
    }

    static func cover(descriptor: Int32, formatName: String?) throws(HelperFailure) -> (mimeType: String, data: [UInt8])? {
        let input = try open(FileByteSource(descriptor: descriptor, randomAccess: true), formatName)
        for stream in input.streams where stream.kind == .attachedPicture {
            if let picture = input.attachedPicture(stream: stream.index, limit: coverLimit) { return picture }
        }
        return nil
    }

    private static func open(_ source: FileByteSource, _ formatName: String?) throws(HelperFailure) -> MediaInput {
        do {
            return try MediaInput(source: source, formatName: formatName, bufferSize: bufferSize)
        } catch {
            throw HelperFailure(unreadable: error, formatName: formatName)
        }
    }
}

extension HelperFailure {
    /// The words for a file FFmpeg could not open as `formatName`.
    init(unreadable error: FFmpegError, formatName: String?) {
        let kind = formatName == "aac" ? "an AAC (ADTS) file" : "an M4A/MP4 file"
        self.init(error.isInvalidData || error.isEndOfInput ? "not \(kind) that can be read (\(error.message))"
                  : "cannot read it as \(kind) (\(error.message))")
    }
}

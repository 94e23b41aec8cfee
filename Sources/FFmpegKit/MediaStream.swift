internal import CFFmpeg

/// What a container says about one of its streams (no decoding involved).
public struct MediaStream: Sendable {
    public enum Kind: Sendable, Equatable {
        case audio, video, data, other
        /// A cover picture stored as a one-packet "stream" (MP4 `covr`, ID3 APIC).
        case attachedPicture
    }

    public var index: Int
    public var kind: Kind
    /// FFmpeg's short codec name: "aac", "alac", "vorbis", "opus", "flac", "mp3", "timed_id3"…
    public var codecName: String
    /// The container's rate and channels (for HE-AAC with implicit signalling, half the rate and
    /// perhaps fewer channels than the decoder will deliver).
    public var sampleRate: Int
    public var channels: Int
    /// The sample size the container declares (`bits_per_coded_sample`): ALAC's 16 or 24 from
    /// its `stsd` entry; a lossy codec's is a placeholder (AAC says 16). 0 when not given.
    public var bitsPerCodedSample: Int
    /// The stream's time base as a fraction of a second.
    public var timeBase: (numerator: Int32, denominator: Int32)
    /// In `timeBase` units, when the container knows it (an MP4 edit list's length).
    public var duration: Int64?
    /// The timestamp of the first sample to be heard, in `timeBase` units.
    public var startTime: Int64?
    public var metadata: MetadataPairs

    /// `value` in time-base units as seconds.
    public func seconds(_ value: Int64) -> Double {
        guard timeBase.denominator != 0 else { return 0 }
        return Double(value) * Double(timeBase.numerator) / Double(timeBase.denominator)
    }

    init(_ stream: UnsafeMutablePointer<AVStream>) {
        let parameters = stream.pointee.codecpar.pointee
        index = Int(stream.pointee.index)
        switch parameters.codec_type {
        case AVMEDIA_TYPE_AUDIO: kind = .audio
        case AVMEDIA_TYPE_VIDEO:
            kind = stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 ? .attachedPicture : .video
        case AVMEDIA_TYPE_DATA: kind = .data
        default: kind = .other
        }
        codecName = avcodec_get_name(parameters.codec_id).map { String(cString: $0) } ?? "unknown"
        sampleRate = Int(parameters.sample_rate)
        channels = Int(parameters.ch_layout.nb_channels)
        bitsPerCodedSample = Int(max(0, parameters.bits_per_coded_sample))
        timeBase = (stream.pointee.time_base.num, stream.pointee.time_base.den)
        duration = stream.pointee.duration == aubade_AV_NOPTS_VALUE || stream.pointee.duration <= 0 ? nil : stream.pointee.duration
        startTime = stream.pointee.start_time == aubade_AV_NOPTS_VALUE ? nil : stream.pointee.start_time
        metadata = MetadataDictionary.pairs(stream.pointee.metadata)
    }
}

internal import CFFmpeg

/// One decoded frame (`AVFrame`) of audio, reused from decode to decode, or a picture.
public final class Frame {
    let frame: UnsafeMutablePointer<AVFrame>

    public init() throws(FFmpegError) {
        guard let frame = av_frame_alloc() else { throw .outOfMemory("av_frame_alloc") }
        self.frame = frame
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&pointer)
    }

    /// A picture's size in pixels (0 for audio).
    public var width: Int { Int(frame.pointee.width) }
    public var height: Int { Int(frame.pointee.height) }

    public var sampleRate: Int { Int(frame.pointee.sample_rate) }
    public var channels: Int { Int(frame.pointee.ch_layout.nb_channels) }
    /// Samples per channel in the frame.
    public var sampleCount: Int { Int(frame.pointee.nb_samples) }
    /// Presentation time of its first sample in the stream's time base (after the decoder
    /// dropped the encoder's priming), when known.
    public var presentationTime: Int64? {
        let time = frame.pointee.best_effort_timestamp
        return time == aubade_AV_NOPTS_VALUE ? nil : time
    }
}

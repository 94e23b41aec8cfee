internal import CFFmpeg

/// Converts decoded frames (FFmpeg's planar float for AAC, 16/32-bit integers for ALAC…) to
/// interleaved signed 16-bit at one fixed rate and channel count (`SwrContext`): the PCM the
/// daemon plays. A frame in another format (an HLS discontinuity to another rate) is resampled.
public final class Resampler {
    public let sampleRate: Int
    public let channels: Int
    private var context: OpaquePointer?
    private var input: (format: Int32, rate: Int32, channels: Int32)?
    /// Where swr_convert writes, reused from frame to frame.
    private var scratch: UnsafeMutableRawPointer?
    private var scratchBytes = 0

    public init(sampleRate: Int, channels: Int) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    deinit {
        swr_free(&context)
        scratch?.deallocate()
    }

    /// Appends `frame`'s samples, converted, to `output`; returns the frames appended.
    @discardableResult
    public func convert(_ frame: Frame, appendingTo output: inout [UInt8]) throws(FFmpegError) -> Int {
        let source = frame.frame
        let key = (source.pointee.format, source.pointee.sample_rate, source.pointee.ch_layout.nb_channels)
        if input == nil || input! != key { try configure(for: source) }
        let bytesPerFrame = 2 * channels
        let capacity = Int(swr_get_out_samples(context, source.pointee.nb_samples)) + 32
        if scratchBytes < capacity * bytesPerFrame {
            scratch?.deallocate()
            scratchBytes = capacity * bytesPerFrame
            scratch = UnsafeMutableRawPointer.allocate(byteCount: scratchBytes, alignment: 16)
        }
        var destination: UnsafeMutablePointer<UInt8>? = scratch!.assumingMemoryBound(to: UInt8.self)
        let converted = withUnsafeMutablePointer(to: &destination) { destinations in
            source.pointee.extended_data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { sources in
                swr_convert(context, destinations, Int32(capacity), sources, source.pointee.nb_samples)
            }
        }
        guard converted >= 0 else { throw FFmpegError(function: "swr_convert", code: converted) }
        // One copy, of contiguous bytes (a byte-by-byte append costs seconds a minute unoptimized).
        output.append(contentsOf: UnsafeRawBufferPointer(start: scratch, count: Int(converted) * bytesPerFrame))
        return Int(converted)
    }

    /// Drops what the resampler holds (after a seek).
    public func reset() {
        swr_free(&context)
        input = nil
    }

    private func configure(for frame: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        swr_free(&context)
        var outputLayout = AVChannelLayout()
        av_channel_layout_default(&outputLayout, Int32(channels))
        var inputLayout = AVChannelLayout()
        if av_channel_layout_check(&frame.pointee.ch_layout) != 0 {
            try FFmpegError.check(av_channel_layout_copy(&inputLayout, &frame.pointee.ch_layout), "av_channel_layout_copy")
        } else {
            av_channel_layout_default(&inputLayout, frame.pointee.ch_layout.nb_channels)
        }
        defer {
            av_channel_layout_uninit(&inputLayout)
            av_channel_layout_uninit(&outputLayout)
        }
        try FFmpegError.check(swr_alloc_set_opts2(&context, &outputLayout, AV_SAMPLE_FMT_S16, Int32(sampleRate),
                                                  &inputLayout, AVSampleFormat(frame.pointee.format), frame.pointee.sample_rate,
                                                  0, nil), "swr_alloc_set_opts2")
        try FFmpegError.check(swr_init(context), "swr_init")
        input = (frame.pointee.format, frame.pointee.sample_rate, frame.pointee.ch_layout.nb_channels)
    }
}

internal import CFFmpeg

/// The decoder of one audio stream (`AVCodecContext`): packets in, frames out.
public final class AudioStreamDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    public let codecName: String

    /// A decoder for stream `index` of `input`, with the parameters its container gave.
    public init(input: MediaInput, stream index: Int) throws(FFmpegError) {
        guard let formatContext = input.context, index < Int(formatContext.pointee.nb_streams),
              let stream = formatContext.pointee.streams[index] else {
            throw FFmpegError(function: "avcodec_find_decoder", code: aubade_AVERROR_INVALIDDATA, message: "no such stream")
        }
        let parameters = stream.pointee.codecpar
        guard let codec = avcodec_find_decoder(parameters!.pointee.codec_id) else {
            let name = avcodec_get_name(parameters!.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
            throw FFmpegError(function: "avcodec_find_decoder", code: aubade_AVERROR_INVALIDDATA, message: "no decoder for \(name)")
        }
        codecName = String(cString: codec.pointee.name)
        guard let context = avcodec_alloc_context3(codec) else { throw .outOfMemory("avcodec_alloc_context3") }
        self.context = context
        try FFmpegError.check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context")
        context.pointee.pkt_timebase = stream.pointee.time_base
        // One thread: audio decoders gain nothing from more, and each would be a stack of memory.
        context.pointee.thread_count = 1
        try FFmpegError.check(avcodec_open2(context, codec, nil), "avcodec_open2")
    }

    deinit { avcodec_free_context(&context) }

    /// Hands over a packet; nil drains the decoder (the end of the input). Throws "again"
    /// when frames must be received first, "invalid data" for a damaged packet.
    public func send(_ packet: Packet?) throws(FFmpegError) {
        try FFmpegError.check(avcodec_send_packet(context, packet?.packet), "avcodec_send_packet")
    }

    /// The next frame into `frame`; false when the decoder needs another packet (or is drained).
    public func receive(into frame: Frame) throws(FFmpegError) -> Bool {
        let result = avcodec_receive_frame(context, frame.frame)
        if result == aubade_AVERROR_EAGAIN || result == aubade_AVERROR_EOF { return false }
        try FFmpegError.check(result, "avcodec_receive_frame")
        return true
    }

    /// Forgets everything before a seek.
    public func flush() { avcodec_flush_buffers(context) }
}

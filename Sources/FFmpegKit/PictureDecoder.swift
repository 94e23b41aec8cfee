internal import CFFmpeg

/// The decoder of a picture (`AVCodecContext` of an image codec): a cover's packet in, its
/// pixels out. Pictures are hostile input: the decoder refuses a size past `maximumPixels`
/// before it allocates the picture (FFmpeg's `max_pixels`, checked when a header is read).
public final class PictureDecoder {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    public let codecName: String

    /// A decoder for stream `index` of `input`, if its codec is one of `codecs` (FFmpeg's names:
    /// "mjpeg", "png"…). `lowres` (0…3, JPEG only) decodes at 1/2ⁿ of the size, which costs
    /// 1/4ⁿ of the work: a thumbnail needs no more.
    public init(input: MediaInput, stream index: Int, codecs: Set<String>, maximumPixels: Int, lowres: Int = 0) throws(FFmpegError) {
        guard let formatContext = input.context, index < Int(formatContext.pointee.nb_streams),
              let stream = formatContext.pointee.streams[index], let parameters = stream.pointee.codecpar else {
            throw FFmpegError(function: "avcodec_find_decoder", code: aubade_AVERROR_INVALIDDATA, message: "no such stream")
        }
        let name = avcodec_get_name(parameters.pointee.codec_id).map { String(cString: $0) } ?? "unknown"
        guard parameters.pointee.codec_type == AVMEDIA_TYPE_VIDEO, codecs.contains(name),
              let codec = avcodec_find_decoder(parameters.pointee.codec_id) else {
            throw FFmpegError(function: "avcodec_find_decoder", code: aubade_AVERROR_INVALIDDATA, message: "not a picture that can be read (\(name))")
        }
        codecName = name
        guard let context = avcodec_alloc_context3(codec) else { throw .outOfMemory("avcodec_alloc_context3") }
        self.context = context
        try FFmpegError.check(avcodec_parameters_to_context(context, parameters), "avcodec_parameters_to_context")
        context.pointee.thread_count = 1
        context.pointee.max_pixels = Int64(maximumPixels)
        if lowres > 0 {
            context.pointee.lowres = Int32(min(lowres, Int(codec.pointee.max_lowres)))
        }
        try FFmpegError.check(avcodec_open2(context, codec, nil), "avcodec_open2")
    }

    deinit { avcodec_free_context(&context) }

    /// Hands over a packet; nil drains the decoder (no more packets).
    public func send(_ packet: Packet?) throws(FFmpegError) {
        try FFmpegError.check(avcodec_send_packet(context, packet?.packet), "avcodec_send_packet")
    }

    /// The next picture into `frame`; false when the decoder needs another packet (or is drained).
    public func receive(into frame: Frame) throws(FFmpegError) -> Bool {
        let result = avcodec_receive_frame(context, frame.frame)
        if result == aubade_AVERROR_EAGAIN || result == aubade_AVERROR_EOF { return false }
        try FFmpegError.check(result, "avcodec_receive_frame")
        return true
    }
}

internal import CFFmpeg

/// A picture encoded as a baseline JPEG (FFmpeg's `mjpeg` encoder, fixed quantiser).
public enum JPEGEncoder {
    /// `frame` (`YUVJ420P`, from `PictureScaler`) as JPEG bytes. `quantiser`: 2 (best) … 31;
    /// 4 or 5 is what `ffmpeg -q:v` users call good.
    public static func encode(_ frame: Frame, quantiser: Int) throws(FFmpegError) -> [UInt8] {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError(function: "avcodec_find_encoder", code: aubade_AVERROR_INVALIDDATA, message: "no JPEG encoder")
        }
        var context = avcodec_alloc_context3(codec)
        guard let encoder = context else { throw .outOfMemory("avcodec_alloc_context3") }
        defer { avcodec_free_context(&context) }
        encoder.pointee.width = frame.frame.pointee.width
        encoder.pointee.height = frame.frame.pointee.height
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUVJ420P
        encoder.pointee.color_range = AVCOL_RANGE_JPEG
        encoder.pointee.time_base = AVRational(num: 1, den: 25)
        encoder.pointee.thread_count = 1
        encoder.pointee.flags |= Int32(AV_CODEC_FLAG_QSCALE)
        let lambda = Int32(FF_QP2LAMBDA) * Int32(min(max(quantiser, 2), 31))
        encoder.pointee.global_quality = lambda
        try FFmpegError.check(avcodec_open2(encoder, codec, nil), "avcodec_open2")
        frame.frame.pointee.quality = lambda
        frame.frame.pointee.pts = 0
        try FFmpegError.check(avcodec_send_frame(encoder, frame.frame), "avcodec_send_frame")
        try FFmpegError.check(avcodec_send_frame(encoder, nil), "avcodec_send_frame")
        let packet = try Packet()
        try FFmpegError.check(avcodec_receive_packet(encoder, packet.packet), "avcodec_receive_packet")
        return packet.bytes(limit: Int(packet.packet.pointee.size))
    }
}

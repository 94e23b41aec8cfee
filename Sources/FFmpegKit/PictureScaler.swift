internal import CFFmpeg

/// A picture scaled and converted (`libswscale`): any decoded pixel format to full-range
/// YUV 4:2:0 (`YUVJ420P`, what a baseline JPEG holds) at a new size.
public enum PictureScaler {
    /// `frame` at `width` × `height` in `YUVJ420P`.
    public static func scaled(_ frame: Frame, width: Int, height: Int) throws(FFmpegError) -> Frame {
        let source = frame.frame
        guard width > 0, height > 0, source.pointee.width > 0, source.pointee.height > 0,
              source.pointee.format >= 0 else {
            throw FFmpegError(function: "sws_getContext", code: aubade_AVERROR_INVALIDDATA, message: "no picture to scale")
        }
        // Bicubic (swscale widens its filter with the ratio, so a big shrink averages, not skips).
        guard let scaler = sws_getContext(source.pointee.width, source.pointee.height, AVPixelFormat(rawValue: source.pointee.format),
                                          Int32(width), Int32(height), AV_PIX_FMT_YUVJ420P,
                                          Int32(SWS_BICUBIC | SWS_ACCURATE_RND), nil, nil, nil) else {
            throw FFmpegError(function: "sws_getContext", code: aubade_AVERROR_INVALIDDATA, message: "cannot convert this picture's pixels")
        }
        defer { sws_freeContext(scaler) }
        let output = try Frame()
        output.frame.pointee.width = Int32(width)
        output.frame.pointee.height = Int32(height)
        output.frame.pointee.format = AV_PIX_FMT_YUVJ420P.rawValue
        output.frame.pointee.color_range = AVCOL_RANGE_JPEG
        try FFmpegError.check(av_frame_get_buffer(output.frame, 0), "av_frame_get_buffer")
        try FFmpegError.check(sws_scale_frame(scaler, output.frame, source), "sws_scale_frame")
        return output
    }
}

internal import CFFmpeg

/// Process-wide settings of the libraries.
public enum FFmpegLibrary {
    /// No log lines on stderr: a hostile file could otherwise write thousands. The helper
    /// reports what failed through its own answers (each error carries FFmpeg's words).
    public static func silenceLog() {
        av_log_set_level(AV_LOG_QUIET)
    }

    /// "libavformat 59.27.100, libavcodec 59.37.100", for `aubade-ffmpeg --version`.
    public static var versions: String {
        func text(_ version: UInt32) -> String { "\(version >> 16).\((version >> 8) & 0xFF).\(version & 0xFF)" }
        return "libavformat \(text(avformat_version())), libavcodec \(text(avcodec_version())), "
            + "libswresample \(text(swresample_version())), libavutil \(text(avutil_version()))"
    }
}

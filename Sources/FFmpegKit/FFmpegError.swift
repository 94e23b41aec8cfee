internal import CFFmpeg

/// A failed FFmpeg call: the function's name, its (negative) return code and FFmpeg's words
/// for it (`av_strerror`).
public struct FFmpegError: Error, Sendable, Equatable, CustomStringConvertible {
    public var function: String
    public var code: Int32
    public var message: String

    public init(function: String, code: Int32, message: String? = nil) {
        self.function = function
        self.code = code
        self.message = message ?? Self.describe(code)
    }

    /// The input ended (`AVERROR_EOF`).
    public var isEndOfInput: Bool { code == aubade_AVERROR_EOF }
    /// Nothing now, ask again after feeding (`AVERROR(EAGAIN)`).
    public var isAgain: Bool { code == aubade_AVERROR_EAGAIN }
    /// The bytes are not what the demuxer or decoder expected (`AVERROR_INVALIDDATA`).
    public var isInvalidData: Bool { code == aubade_AVERROR_INVALIDDATA }
    /// The interrupt callback stopped a blocking call (`AVERROR_EXIT`).
    public var isInterrupted: Bool { code == aubade_AVERROR_EXIT }
    public var isOutOfMemory: Bool { code == aubade_AVERROR_ENOMEM }

    public var description: String { "\(function): \(message)" }

    static func describe(_ code: Int32) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        if av_strerror(code, &buffer, buffer.count) < 0 { return "error \(code)" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Throws unless `result` is ≥ 0 (FFmpeg's convention).
    @discardableResult
    static func check(_ result: Int32, _ function: String) throws(FFmpegError) -> Int32 {
        guard result >= 0 else { throw FFmpegError(function: function, code: result) }
        return result
    }

    static func outOfMemory(_ function: String) -> FFmpegError {
        FFmpegError(function: function, code: aubade_AVERROR_ENOMEM)
    }
}

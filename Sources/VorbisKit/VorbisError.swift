internal import CVorbisFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure reported by vorbisfile (or by a system call VorbisKit makes on its behalf).
///
/// `function` names the C function that failed, `code` is its negative `OV_E…` return value
/// (or the `errno` of a system call such as `open`), `message` says what that code means.
public struct VorbisError: Error, Sendable, Equatable, CustomStringConvertible {
    public var function: String
    public var code: Int32
    public var message: String

    public init(function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    public var description: String { "\(function): \(message) (\(code))" }

    /// The bytes are not Vorbis, or its headers are broken: the file is not an Ogg Vorbis file.
    public var isNotVorbis: Bool {
        [OV_ENOTVORBIS, OV_EBADHEADER, OV_EVERSION, OV_ENOTAUDIO, OV_EREAD, OV_EOF, OV_FALSE].contains(code)
            && function.hasPrefix("ov_")
    }

    /// A system call (`open`, `fstat`) failed; `code` is its errno.
    public var isSystemError: Bool { !function.hasPrefix("ov_") }

    /// `open(path:)` refused a FIFO, device node or socket.
    public var isNotARegularFile: Bool { function == "fstat" && code == ENODEV }
}

extension VorbisError {
    /// An error for a negative `code` returned by the vorbisfile function `function`.
    init(function: String, code: Int32) {
        self.init(function: function, code: code, message: Self.message(for: code))
    }

    /// An error for a failed system call, from `errno`.
    init(systemCall function: String, errno code: Int32) {
        self.init(function: function, code: code, message: String(cString: strerror(code)))
    }

    /// vorbisfile has no strerror: the meanings of its codes, from vorbisfile's documentation.
    static func message(for code: Int32) -> String {
        switch code {
        case OV_FALSE: "not true, or no data available"
        case OV_EOF: "end of file"
        case OV_HOLE: "interruption in the data"
        case OV_EREAD: "read error"
        case OV_EFAULT: "internal logic fault"
        case OV_EIMPL: "feature not implemented"
        case OV_EINVAL: "invalid argument"
        case OV_ENOTVORBIS: "not Vorbis data"
        case OV_EBADHEADER: "invalid Vorbis header"
        case OV_EVERSION: "Vorbis version mismatch"
        case OV_ENOTAUDIO: "packet is not audio"
        case OV_EBADPACKET: "invalid packet"
        case OV_EBADLINK: "corrupt link in the stream"
        case OV_ENOSEEK: "stream is not seekable"
        default: "unknown error"
        }
    }
}

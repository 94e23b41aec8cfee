internal import COpusFile
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure reported by opusfile (or by a system call OpusKit makes on its behalf).
///
/// `function` names the C function that failed, `code` is its negative `OP_E…` return value
/// (or the `errno` of a system call such as `open`), `message` says what that code means.
public struct OpusError: Error, Sendable, Equatable, CustomStringConvertible {
    public var function: String
    public var code: Int32
    public var message: String

    public init(function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    public var description: String { "\(function): \(message) (\(code))" }

    /// The bytes are not Opus, or its headers are broken: the file is not an Opus file.
    public var isNotOpus: Bool {
        [OP_ENOTFORMAT, OP_EBADHEADER, OP_EVERSION, OP_EREAD, OP_EBADLINK, OP_EBADTIMESTAMP, OP_FALSE, OP_EOF].contains(code)
            && function.hasPrefix("op_")
    }

    /// A system call (`open`, `fstat`) failed; `code` is its errno.
    public var isSystemError: Bool { !function.hasPrefix("op_") }

    /// `open(path:)` refused a FIFO, device node or socket.
    public var isNotARegularFile: Bool { function == "fstat" && code == ENODEV }
}

extension OpusError {
    /// An error for a negative `code` returned by the opusfile function `function`.
    init(function: String, code: Int32) {
        self.init(function: function, code: code, message: Self.message(for: code))
    }

    /// An error for a failed system call, from `errno`.
    init(systemCall function: String, errno code: Int32) {
        self.init(function: function, code: code, message: String(cString: strerror(code)))
    }

    /// opusfile has no strerror: the meanings of its codes, from opusfile's documentation.
    static func message(for code: Int32) -> String {
        switch code {
        case OP_FALSE: "no data available"
        case OP_EOF: "end of file"
        case OP_HOLE: "interruption in the data"
        case OP_EREAD: "read error"
        case OP_EFAULT: "internal fault (out of memory?)"
        case OP_EIMPL: "feature not implemented"
        case OP_EINVAL: "invalid argument"
        case OP_ENOTFORMAT: "not Opus data"
        case OP_EBADHEADER: "invalid Opus header"
        case OP_EVERSION: "unknown Opus header version"
        case OP_ENOTAUDIO: "packet is not audio"
        case OP_EBADPACKET: "invalid Opus packet"
        case OP_EBADLINK: "corrupt link in the stream"
        case OP_ENOSEEK: "stream is not seekable"
        case OP_EBADTIMESTAMP: "invalid granule positions"
        default: "unknown error"
        }
    }
}

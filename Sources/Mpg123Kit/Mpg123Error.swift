internal import CMpg123

/// A failure reported by libmpg123 (or by the system call Mpg123Kit makes on its behalf).
///
/// `function` names the C function that failed, `code` is its `mpg123_errors` value (or the
/// `errno` for system calls such as `open`), `message` is the library's own explanation.
public struct Mpg123Error: Error, Sendable, Equatable, CustomStringConvertible {
    public var function: String
    public var code: Int32
    public var message: String

    public init(function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    public var description: String { "\(function): \(message) (\(code))" }

    /// `MPG123_ERR`: the generic "something went wrong" code; the handle usually knows more.
    public static let genericErrorCode: Int32 = MPG123_ERR.rawValue

    /// `MPG123_DONE` reported where data was expected: the stream holds no (more) frames.
    /// `outputFormat()` fails this way on a file with no MPEG frames at all (a lone tag).
    public var isEndOfStream: Bool { code == MPG123_DONE.rawValue }
}

extension Mpg123Error {
    /// An error for a code returned directly by `function` (no handle to ask).
    init(function: String, code: Int32) {
        let text = mpg123_plain_strerror(code).map { String(cString: $0) } ?? "unknown error"
        self.init(function: function, code: code, message: text)
    }

    /// An error for a failed call on `handle`: the handle's detailed code beats a bare `MPG123_ERR`.
    init(function: String, code: Int32, handle: OpaquePointer?) {
        var detailed = code
        if code == MPG123_ERR.rawValue, let handle {
            let stored = mpg123_errcode(handle)
            if stored != MPG123_OK.rawValue { detailed = stored }
        }
        self.init(function: function, code: detailed)
    }
}

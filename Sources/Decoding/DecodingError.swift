import Mpg123Kit
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file that cannot be played, and why, in words a user can act on.
public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as bytes (`description` shows it as text).
    public var path: FilePath
    /// Short and lower-case, e.g. "file not found", "not an MP3 file", "no audio frames".
    public var reason: String

    public init(path: FilePath, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

extension DecodingError {
    /// Reasons for a failure while opening or probing a file.
    ///
    /// System errors from `open` become the familiar words; a libmpg123 error at this stage
    /// means the bytes are not MPEG audio (random data, a WAV named .mp3…).
    init(path: FilePath, opening error: Mpg123Error) {
        let reason: String
        if error.isNotARegularFile {
            self.init(path: path, reason: "not a regular file")
            return
        }
        switch (error.function, error.code) {
        case ("open", ENOENT), ("open", ENOTDIR): reason = "file not found"
        case ("open", EACCES), ("open", EPERM): reason = "permission denied"
        case ("open", EISDIR): reason = "is a directory, not a file"
        case ("open", _), ("fstat", _): reason = "cannot open: \(error.message)"
        default: reason = "not an MP3 file (\(error.function): \(error.message))"
        }
        self.init(path: path, reason: reason)
    }

    /// A failure of the library itself or in the middle of decoding.
    init(path: FilePath, decoding error: Mpg123Error) {
        self.init(path: path, reason: "decoding failed (\(error.function): \(error.message))")
    }
}

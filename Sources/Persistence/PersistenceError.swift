#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The one error of the Persistence module: which file, which call failed, and why.
///
/// `call` names the system call or step that failed ("open", "write", "fsync", "rename",
/// "JSON encoding", "playlist name"…), so a log line says exactly what went wrong where.
public struct PersistenceError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file or folder concerned.
    public var path: String
    /// The failing call or step.
    public var call: String
    /// In words: `strerror` for system calls, else a short explanation.
    public var reason: String
    /// The C `errno`, when a system call failed.
    public var code: Int32?

    public init(path: String, call: String, reason: String, code: Int32? = nil) {
        self.path = path
        self.call = call
        self.reason = reason
        self.code = code
    }

    /// A failed system call; `code` defaults to the current `errno`.
    static func system(_ call: String, _ path: String, code: Int32 = errno) -> PersistenceError {
        let reason = strerror(code).map { String(cString: $0) } ?? "error \(code)"
        return PersistenceError(path: path, call: call, reason: reason, code: code)
    }

    public var description: String { "\(path): \(call): \(reason)" }
}

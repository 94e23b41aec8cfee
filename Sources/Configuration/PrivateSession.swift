#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The private session `make run` starts where there is no session bus (a headless box, a root
/// shell): `scripts/serve` runs the daemon inside `scripts/audio-session --announce FILE`,
/// which writes the session's addresses to `FILE` while it runs, so the client verbs
/// (`aubade status`, `monitor`, `add` …) find it instead of failing with libdbus's "Unable to
/// autolaunch a dbus-daemon without a $DISPLAY".
///
/// The file is `$XDG_RUNTIME_DIR/aubade/private-session`, or `/tmp/aubade-UID/private-session`
/// without an XDG_RUNTIME_DIR; it holds `KEY=VALUE` lines. Its folder is trusted only when it
/// is ours and nobody else may write in it (0700): another user could otherwise point our
/// client at a bus of theirs.
public struct PrivateSession: Sendable, Equatable {
    /// `DBUS_SESSION_BUS_ADDRESS` of the private bus.
    public var busAddress: String
    /// `PULSE_SERVER` of the private sound server, when given.
    public var soundServer: String?

    /// The file `make run` announces its session in, for this environment and user.
    public static func announcementPath(environment: [String: String], uid: uid_t) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return runtime + "/aubade/private-session"
        }
        return "/tmp/aubade-\(uid)/private-session"
    }

    /// The session in the file's text; nil when it names no bus. Unknown keys are ignored;
    /// values are taken as written (one line each, at most 4 KiB of text in all).
    public static func parse(_ text: String) -> PrivateSession? {
        guard text.utf8.count <= 4096 else { return nil }
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            values[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        guard let bus = values["DBUS_SESSION_BUS_ADDRESS"], !bus.isEmpty else { return nil }
        return PrivateSession(busAddress: bus, soundServer: values["PULSE_SERVER"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// Why a session file cannot be used.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// No file: no private session is running.
        case none(path: String)
        /// The folder is not ours alone (someone else could have written the file).
        case untrusted(path: String, why: String)
        case unreadable(path: String)

        public var description: String {
            switch self {
            case .none(let path): "no session started by `make run` is running (none recorded in \(path))"
            case .untrusted(let path, let why): "\(path) is not trusted: \(why)"
            case .unreadable(let path): "\(path) names no session bus"
            }
        }
    }

    /// Reads the session announced at `path`, checking that its folder belongs to `uid` and
    /// only to it.
    public static func read(at path: String, uid: uid_t) throws(Problem) -> PrivateSession {
        let folder = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        var info = stat()
        guard lstat(folder, &info) == 0 else { throw .none(path: path) }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .untrusted(path: path, why: "\(folder) is not a folder") }
        guard info.st_uid == uid else { throw .untrusted(path: path, why: "\(folder) belongs to uid \(info.st_uid)") }
        guard info.st_mode & 0o022 == 0 else { throw .untrusted(path: path, why: "others may write in \(folder)") }
        guard let file = fopen(path, "r") else {
            throw errno == ENOENT ? .none(path: path) : .unreadable(path: path)
        }
        defer { fclose(file) }
        var bytes = [UInt8](repeating: 0, count: 4097)
        let count = fread(&bytes, 1, bytes.count, file)
        guard let session = parse(String(decoding: bytes[..<count], as: UTF8.self)) else { throw .unreadable(path: path) }
        return session
    }
}

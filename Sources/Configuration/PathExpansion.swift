#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `~` and `$HOME` in paths, and what a relative path is relative to.
///
/// In the file a path must be absolute once expanded (relative to what? the daemon's working
/// folder under systemd is not the user's); on the command line a relative path is relative to
/// the working folder, as in any command.
struct PathExpansion: Sendable {
    var home: String
    /// Where relative paths are resolved; nil: they are an error.
    var workingDirectory: String?

    func absolute(_ value: String) throws(ValueError) -> String {
        var path = value
        if path == "~" {
            path = home
        } else if path.hasPrefix("~/") {
            path = join(home, String(path.dropFirst(2)))
        } else if path.hasPrefix("~") {
            // ~user: not supported; say so rather than make a folder called "~user".
            throw ValueError(expected: "a path starting with /, ~/ or $HOME (~user is not supported)")
        }
        path = expandHome(path)
        if !path.hasPrefix("/") {
            guard let workingDirectory else {
                throw ValueError(expected: "an absolute path (starting with /, ~/ or $HOME)")
            }
            path = join(workingDirectory, path)
        }
        return normalized(path)
    }

    /// `$HOME` and `${HOME}` anywhere (`$HOMEPAGE` is left alone).
    private func expandHome(_ path: String) -> String {
        var result = ""
        var rest = Substring(path)
        while let dollar = rest.firstIndex(of: "$") {
            result += rest[..<dollar]
            let after = rest[dollar...]
            if after.hasPrefix("${HOME}") {
                result += home
                rest = after.dropFirst("${HOME}".count)
            } else if after.hasPrefix("$HOME"),
                      after.dropFirst(5).first.map({ !($0.isLetter || $0.isNumber || $0 == "_") }) ?? true {
                result += home
                rest = after.dropFirst(5)
            } else {
                result += "$"
                rest = after.dropFirst()
            }
        }
        return result + rest
    }

    private func join(_ directory: String, _ name: String) -> String {
        if name.isEmpty { return directory }
        return directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// Without `//`, `/./` and a trailing `/` (`..` is kept: with symlinks it is not ours to fold).
    private func normalized(_ path: String) -> String {
        let parts = path.split(separator: "/").filter { $0 != "." }
        return "/" + parts.joined(separator: "/")
    }
}

/// The few environment variables the configuration depends on, passed in so tests need not
/// change the process's own.
public enum Environment {
    public static func current() -> [String: String] {
        var environment: [String: String] = [:]
        for key in ["HOME", "XDG_CONFIG_HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        if (environment["HOME"] ?? "").isEmpty, let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            environment["HOME"] = String(cString: directory)
        }
        return environment
    }

    /// The working folder (getcwd), against which relative paths on the command line resolve.
    public static func currentDirectory() -> String? {
        guard let pointer = getcwd(nil, 0) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    static func home(_ environment: [String: String]) -> String {
        if let home = environment["HOME"], !home.isEmpty { return home }
        return "/"
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Where Aubade keeps its files, following the XDG Base Directory specification and
/// `xdg-user-dirs`:
/// - state: `$XDG_STATE_HOME/aubade` (default `~/.local/state/aubade`);
/// - covers: `$XDG_CACHE_HOME/aubade/covers` (default `~/.cache/aubade/covers`);
/// - the tag index: `$XDG_CACHE_HOME/aubade/tags.index`;
/// - playlists: `$XDG_MUSIC_DIR/Playlists`, XDG_MUSIC_DIR read from
///   `$XDG_CONFIG_HOME/user-dirs.dirs` (default `~/Music`).
///
/// The environment is passed in so tests need not touch the process's own.
public struct XDGDirectories: Sendable, Equatable {
    public var environment: [String: String]

    public init(environment: [String: String]) {
        self.environment = environment
    }

    /// The process's environment (the few variables that matter here).
    public static func current() -> XDGDirectories {
        current { key in getenv(key).map { String(cString: $0) } }
    }

    /// The variables that matter, each read with `variable` (the process's `getenv`; a test's
    /// own table). `XDG_RUNTIME_DIR` among them: without it there is no MPD socket.
    static func current(reading variable: (String) -> String?) -> XDGDirectories {
        var environment: [String: String] = [:]
        for key in ["HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR"] {
            if let value = variable(key) { environment[key] = value }
        }
        if environment["HOME"] == nil, let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir {
            environment["HOME"] = String(cString: directory)
        }
        return XDGDirectories(environment: environment)
    }

    public var home: String { environment["HOME"] ?? "/" }

    public var stateDirectory: String { base("XDG_STATE_HOME", default: ".local/state") + "/aubade" }

    /// The page's token (`aubade web`), readable by its owner only.
    public var webTokenFile: String { stateDirectory + "/web-token" }

    public var coversDirectory: String { base("XDG_CACHE_HOME", default: ".cache") + "/aubade/covers" }

    /// The tag index: `$XDG_CACHE_HOME/aubade/tags.index` (default `~/.cache/aubade/tags.index`).
    public var tagIndexFile: String { base("XDG_CACHE_HOME", default: ".cache") + "/aubade/tags.index" }
    /// The music library's database (the music folders' songs and tags), rebuilt if lost.
    public var libraryFile: String { base("XDG_CACHE_HOME", default: ".cache") + "/aubade/library.db" }
    /// The MPD front-end's Unix socket, in the user's runtime folder (nil without one: no
    /// $XDG_RUNTIME_DIR, as under `su`).
    public var mpdSocket: String? {
        guard let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") else { return nil }
        return runtime + "/aubade/mpd.socket"
    }

    public var musicDirectory: String {
        let file = base("XDG_CONFIG_HOME", default: ".config") + "/user-dirs.dirs"
        guard let bytes = try? FileIO.contents(of: file) else { return join(home, "Music") }
        return Self.musicDirectory(inUserDirs: String(decoding: bytes, as: UTF8.self), home: home)
            ?? join(home, "Music")
    }

    public var playlistsDirectory: String { musicDirectory + "/Playlists" }

    /// The XDG variable when set to an absolute path (the spec says relative ones are invalid
    /// and must be ignored), else `~/<default>`.
    private func base(_ variable: String, default relative: String) -> String {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return join(home, relative)
    }

    private func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }

    /// XDG_MUSIC_DIR from a `user-dirs.dirs` text: a line `XDG_MUSIC_DIR="$HOME/Music"`, the
    /// value either `$HOME/…` or an absolute path (the only two forms the format allows).
    /// A value of just `$HOME/` means the feature is disabled: `nil`, so the default applies.
    static func musicDirectory(inUserDirs text: String, home: String) -> String? {
        var found: String?
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r" }) {
            let line = line.drop { $0 == " " || $0 == "\t" }
            guard line.hasPrefix("XDG_MUSIC_DIR="),
                  let value = unquoted(line.dropFirst("XDG_MUSIC_DIR=".count)) else { continue }
            if value.hasPrefix("$HOME") {
                let rest = value.dropFirst("$HOME".count).drop { $0 == "/" }
                found = rest.isEmpty ? nil : (home.hasSuffix("/") ? home : home + "/") + rest
            } else if value.hasPrefix("/") {
                found = value
            }
        }
        return found
    }

    /// The text between double quotes, with `\"` and `\\` unescaped (as the shell would).
    private static func unquoted(_ text: Substring) -> String? {
        var text = text
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        guard text.count >= 2, text.first == "\"", text.last == "\"" else { return nil }
        var result = ""
        var escaped = false
        for character in text.dropFirst().dropLast() {
            if escaped || character != "\\" {
                result.append(character)
                escaped = false
            } else {
                escaped = true
            }
        }
        return result
    }
}

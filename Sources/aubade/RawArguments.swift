import Glibc
import PlayerCore

/// The command line's arguments as the bytes the shell passed. `CommandLine.arguments`
/// decodes them as UTF-8 and replaces invalid bytes with U+FFFD, so a Latin-1 file name
/// typed or tab-completed on the command line would name a file that does not exist.
enum RawArguments {
    /// The exact bytes of the argument that decoded to `argument`. Only an argument with a
    /// U+FFFD can differ from its own UTF-8; it is looked up in `argv` (the first argument
    /// that decodes to the same text; a NUL-free C string, so always a valid `FilePath`).
    static func path(for argument: String) -> FilePath {
        if !argument.unicodeScalars.contains("\u{FFFD}"), let path = FilePath(argument) { return path }
        for index in 1..<Int(CommandLine.argc) {
            guard let raw = CommandLine.unsafeArgv[index] else { continue }
            let path = FilePath(cString: raw)
            if String(decoding: path.bytes, as: UTF8.self) == argument { return path }
        }
        return FilePath(bytes: argument.utf8.filter { $0 != 0 }) ?? "."
    }

    /// The working folder as bytes.
    static func currentDirectory() -> FilePath {
        guard let cwd = getcwd(nil, 0) else { return "." }
        defer { free(cwd) }
        return FilePath(cString: cwd)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension Settings {
    /// `$XDG_CONFIG_HOME/aubade/aubade.conf`, `~/.config/aubade/aubade.conf` when XDG_CONFIG_HOME
    /// is unset or relative (the XDG spec says to ignore relative values).
    public static func defaultPath(environment: [String: String] = Environment.current()) -> String {
        let base: String
        if let configHome = environment["XDG_CONFIG_HOME"], configHome.hasPrefix("/") {
            base = configHome
        } else {
            let home = Environment.home(environment)
            base = (home.hasSuffix("/") ? home : home + "/") + ".config"
        }
        return (base.hasSuffix("/") ? base : base + "/") + "aubade/aubade.conf"
    }

    /// Reads the configuration file at `path`. A missing file means the defaults, unless
    /// `mustExist` (a file named with --config). Errors name the file, line and key.
    public static func load(from path: String, mustExist: Bool = false,
                            environment: [String: String] = Environment.current()) throws(ConfigurationError) -> Settings {
        let text: String
        switch readFile(path) {
        case .text(let contents):
            text = contents
        case .failed(let code) where code == ENOENT && !mustExist:
            return Settings()
        case .failed(let code):
            let reason = strerror(code).map { String(cString: $0) } ?? "error \(code)"
            throw ConfigurationError(kind: .unreadableFile, file: path, line: nil, key: nil,
                                     message: "cannot read the configuration file: \(reason)")
        case .refused(let reason):
            throw ConfigurationError(kind: .unreadableFile, file: path, line: nil, key: nil,
                                     message: "cannot read the configuration file: \(reason)")
        }
        return try parse(text, file: path, environment: environment)
    }

    /// The settings a configuration text gives, over the defaults; `file` names it in errors.
    public static func parse(_ text: String, file: String,
                             environment: [String: String] = Environment.current()) throws(ConfigurationError) -> Settings {
        let paths = PathExpansion(home: Environment.home(environment), workingDirectory: nil)
        var settings = Settings()
        var firstLine: [String: Int] = [:]
        var number = 0
        // "\r\n" is one Character in Swift: split on every kind of line end, not on "\n" alone.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            func fail(_ kind: ConfigurationError.Kind, _ key: String?, _ message: String) -> ConfigurationError {
                ConfigurationError(kind: kind, file: file, line: number, key: key, message: message)
            }
            let content = line.trimmingBlanks()
            if content.isEmpty || content.hasPrefix("#") { continue }
            guard let equals = content.firstIndex(of: "=") else {
                throw fail(.syntax, nil, "expected \"key = value\", found \"\(content)\"")
            }
            let name = String(content[..<equals].trimmingBlanks())
            guard !name.isEmpty else {
                throw fail(.syntax, nil, "expected \"key = value\", found no key before \"=\"")
            }
            guard let key = ConfigurationKey.named(name) else {
                let hint = ConfigurationKey.closest(to: name).map { " (did you mean \"\($0)\"?)" } ?? ""
                throw fail(.unknownKey, name, "unknown key \"\(name)\"\(hint)")
            }
            if !key.repeatable, let first = firstLine[name] {
                throw fail(.duplicateKey, name, "\"\(name)\" is set twice (first on line \(first))")
            }
            firstLine[name] = firstLine[name] ?? number
            let value: String
            switch unquote(content[content.index(after: equals)...]) {
            case .success(let unquoted): value = unquoted
            case .failure(let problem): throw fail(.syntax, name, "\"\(name)\": \(problem.expected)")
            }
            guard !value.isEmpty else {
                throw fail(.badValue, name, "\"\(name)\" has no value (expected \(key.placeholder))")
            }
            do {
                try key.apply(&settings, value, paths)
            } catch {
                throw fail(.badValue, name, "bad value for \"\(name)\": \"\(value)\" (expected \(error.expected))")
            }
        }
        return settings
    }

    /// The value after `=`: quoted ("…" or '…', taken as is) or bare (up to a " #" comment).
    static func unquote(_ text: Substring) -> Result<String, ValueError> {
        let text = text.trimmingBlanks()
        guard let quote = text.first, quote == "\"" || quote == "'" else {
            // A bare value: a comment starts at a # after a blank.
            var end = text.endIndex
            var index = text.startIndex
            while index < text.endIndex {
                if text[index] == "#", index > text.startIndex,
                   text[text.index(before: index)] == " " || text[text.index(before: index)] == "\t" {
                    end = index
                    break
                }
                index = text.index(after: index)
            }
            return .success(String(text[..<end].trimmingBlanks()))
        }
        let inside = text.dropFirst()
        guard let close = inside.firstIndex(of: quote) else {
            return .failure(ValueError(expected: "the value's closing \(quote) is missing"))
        }
        let rest = inside[inside.index(after: close)...].trimmingBlanks()
        guard rest.isEmpty || rest.hasPrefix("#") else {
            return .failure(ValueError(expected: "unexpected \"\(rest)\" after the quoted value"))
        }
        return .success(String(inside[..<close]))
    }

    /// The file's text, the errno of the failing open/read, or why it was not read.
    private enum ReadResult {
        case text(String)
        case failed(errno: Int32)
        case refused(String)
    }

    /// No configuration comes near this; a bigger file is a mistake, not read into memory.
    static let sizeLimit = 1 << 20

    /// Reads a regular file only: the open is non-blocking and checked with `fstat`, so a FIFO
    /// named aubade.conf cannot hang the start or a SIGHUP reload (which runs on the core
    /// queue), nor a device fill memory.
    private static func readFile(_ path: String) -> ReadResult {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failed(errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failed(errno: errno) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            return info.st_mode & S_IFMT == S_IFDIR ? .failed(errno: EISDIR) : .refused("not a regular file")
        }
        let tooLarge = ReadResult.refused("larger than \(sizeLimit >> 20) MiB")
        guard info.st_size <= sizeLimit else { return tooLarge }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failed(errno: errno)
            }
            if count == 0 { break }
            // The file may grow while it is read.
            guard bytes.count + count <= sizeLimit else { return tooLarge }
            bytes += chunk[..<count]
        }
        return .text(String(decoding: bytes, as: UTF8.self))
    }
}

extension ConfigurationKey {
    /// The key a typo most likely meant: at most 2 edits away (or a matching prefix).
    static func closest(to name: String) -> String? {
        let candidates = all.map(\.name)
        let scored = candidates.map { ($0, editDistance($0, name.lowercased())) }
        if let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= 2 { return best.0 }
        return candidates.first { $0.hasPrefix(name.lowercased()) && name.count >= 3 }
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

extension StringProtocol {
    func trimmingBlanks() -> SubSequence {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }) else { return self[endIndex...] }
        let last = lastIndex(where: { !blank($0) })!
        return self[first...last]
    }
}

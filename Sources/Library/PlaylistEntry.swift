import PlayerCore

/// What one playlist line (M3U) or `FileN=` value (PLS) names, worked out from its bytes.
enum PlaylistEntry: Equatable {
    /// A local file, folder or playlist. `alternative` is set for a line that is not UTF-8:
    /// the same text transcoded to UTF-8, read as Windows-1252/Latin-1 — an old playlist
    /// written in Latin-1 for files that have since been renamed to UTF-8. The exact bytes
    /// are tried first.
    case path(FilePath, alternative: FilePath?)
    /// An internet radio station or a file over HTTP(S).
    case stream(StreamURL)
    /// A line that names nothing we can play, and why; `text` is shortened for messages.
    case unusable(String, reason: String)

    /// The longest line taken for a path: Linux's PATH_MAX. Longer ones are binary junk.
    static let maximumLength = 4096

    init(_ line: ArraySlice<UInt8>, in directory: FilePath) {
        guard line.count <= Self.maximumLength else {
            self = .unusable(Self.shortened(line), reason: "line too long for a path (\(line.count) bytes)")
            return
        }
        if let scheme = Self.scheme(of: line) {
            if scheme == "http" || scheme == "https" {
                self = Self.stream(line)
                return
            }
            guard scheme == "file" else {
                self = .unusable(Self.shortened(line), reason: "unsupported URI scheme \"\(scheme)\" (local files and http(s) streams play)")
                return
            }
            guard let path = FileURI.path(fromFileURIBytes: line) else {
                self = .unusable(Self.shortened(line), reason: "malformed file URI")
                return
            }
            self = .path(path.lexicallyNormalized, alternative: nil)
            return
        }
        guard let path = FilePath(bytes: line) else {
            self = .unusable(Self.shortened(line), reason: "contains a NUL byte")
            return
        }
        let alternative = path.isValidUTF8 ? nil : FilePath(FilePath.displayString(of: line))
        self = .path(FileSystem.absolute(path, relativeTo: directory),
                     alternative: alternative.map { FileSystem.absolute($0, relativeTo: directory) })
    }

    /// An http(s) line: a stream, if it is a valid address.
    static func stream(_ line: some Collection<UInt8>) -> PlaylistEntry {
        let text = String(decoding: line, as: UTF8.self)
        do {
            return .stream(try StreamURL(validating: text))
        } catch {
            return .unusable(shortened(ArraySlice(line)), reason: error.description)
        }
    }

    /// The lower-cased scheme when `text` starts like a URI ("scheme:" then "/").
    /// Requiring the slash keeps a relative file name such as "a:b.mp3" a path.
    static func scheme(of text: some Collection<UInt8>) -> String? {
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")), colon != text.startIndex else { return nil }
        let name = text[..<colon]
        func isLetter(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20)
        }
        guard let first = name.first, isLetter(first),
              name.allSatisfy({ isLetter($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0)
                                || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }),
              text[text.index(after: colon)...].first == UInt8(ascii: "/") else { return nil }
        return String(decoding: name, as: UTF8.self).lowercased()
    }

    /// A line as text for a message: at most 200 bytes, then "…".
    static func shortened(_ line: ArraySlice<UInt8>) -> String {
        line.count <= 200 ? FilePath.displayString(of: line) : FilePath.displayString(of: line.prefix(200)) + "…"
    }
}

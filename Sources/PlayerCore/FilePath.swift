/// A file-system path as the kernel sees it: a sequence of bytes without NUL, not necessarily
/// UTF-8.
///
/// Old music collections are often named in Latin-1 (`caf\xE9.mp3`). A Swift `String` made
/// from such bytes replaces the invalid ones with U+FFFD, so a path kept as a `String` can no
/// longer be opened. `FilePath` keeps the exact bytes from `readdir`, a percent-decoded
/// `file://` URI or a playlist line to the `open(2)` that reads the file; only
/// `displayString` (titles, log lines, error messages) is text.
///
/// Pure data: no file-system access. "Components" are split on "/" only; nothing is resolved.
public struct FilePath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The path's bytes, never containing NUL (C would end the path there).
    public let bytes: [UInt8]

    /// The path made of `bytes`; `nil` if they contain a NUL byte.
    public init?(bytes: some Sequence<UInt8>) {
        let bytes = Array(bytes)
        guard !bytes.contains(0) else { return nil }
        self.bytes = bytes
    }

    /// The path whose bytes are `string`'s UTF-8; `nil` if it contains a NUL character.
    public init?(_ string: String) {
        self.init(bytes: string.utf8)
    }

    /// For literals in code and tests. A literal with a NUL is a programmer error.
    public init(stringLiteral value: String) {
        precondition(!value.utf8.contains(0), "a FilePath literal cannot contain NUL")
        bytes = Array(value.utf8)
    }

    /// Bytes already known to be NUL-free (taken from another path or from a C string).
    private init(trusted bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// Joins two NUL-free byte sequences: the result needs no check.
    private static func joined(_ parts: [ArraySlice<UInt8>], absolute: Bool) -> FilePath {
        var bytes: [UInt8] = absolute ? [slash] : []
        for (index, part) in parts.enumerated() {
            if index > 0 { bytes.append(slash) }
            bytes += part
        }
        return FilePath(trusted: bytes)
    }

    private static let slash = UInt8(ascii: "/")
    private static let dot = UInt8(ascii: ".")

    // MARK: Text

    /// The path as text, for people: each "/"-separated component that is valid UTF-8 as
    /// such, any other as Windows-1252 (a superset of Latin-1's printable characters: what
    /// names that are not UTF-8 were nearly always written in). Decoding per component keeps
    /// a UTF-8 folder readable above a Latin-1 file name. Not reversible: never open this.
    public var displayString: String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        return bytes.split(separator: Self.slash, omittingEmptySubsequences: false)
            .map(Self.displayString(of:))
            .joined(separator: "/")
    }

    public var description: String { displayString }

    /// `bytes` as UTF-8 if they are valid UTF-8, else as Windows-1252 (see `displayString`).
    public static func displayString(of bytes: some Collection<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        for byte in bytes { scalars.append(windows1252(byte)) }
        return String(scalars)
    }

    /// Whether the bytes are valid UTF-8 (then `displayString` gives them back exactly).
    public var isValidUTF8: Bool {
        String(validating: bytes, as: UTF8.self) != nil
    }

    /// The Windows-1252 character of `byte`: Latin-1, except 0x80–0x9F, where Windows put
    /// punctuation and letters; its five unassigned codes become U+FFFD.
    private static func windows1252(_ byte: UInt8) -> Unicode.Scalar {
        guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
        let value = cp1252High[Int(byte - 0x80)]
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    private static let cp1252High: [UInt32] = [
        0x20AC, 0xFFFD, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0xFFFD, 0x017D, 0xFFFD,
        0xFFFD, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0xFFFD, 0x017E, 0x0178,
    ]

    // MARK: C

    /// Calls `body` with the path as a NUL-terminated C string, valid only during the call.
    public func withCString<Result, Failure: Error>(
        _ body: (UnsafePointer<CChar>) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        var terminated = bytes
        terminated.append(0)
        // withUnsafeBufferPointer rethrows untyped errors; carry the typed one out by hand.
        let outcome: Swift.Result<Result, Failure> = terminated.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                do throws(Failure) {
                    return .success(try body(chars.baseAddress!))
                } catch {
                    return .failure(error)
                }
            }
        }
        return try outcome.get()
    }

    /// The bytes of a NUL-terminated C string (e.g. from `getcwd`).
    public init(cString: UnsafePointer<CChar>) {
        let length = strlenOf(cString)
        let bytes = UnsafeRawBufferPointer(start: cString, count: length)
        self.init(trusted: Array(bytes))
    }

    // MARK: Components

    public var isEmpty: Bool { bytes.isEmpty }
    public var isAbsolute: Bool { bytes.first == Self.slash }

    /// The non-empty components between the slashes.
    public var components: [FilePath] {
        bytes.split(separator: Self.slash).map { FilePath(trusted: Array($0)) }
    }

    /// The last component ("c.mp3" of "/a/b/c.mp3"; "b" of "/a/b/"); empty for "/" or "".
    public var lastComponent: FilePath {
        bytes.split(separator: Self.slash).last.map { FilePath(trusted: Array($0)) } ?? FilePath(trusted: [])
    }

    /// The folder the path is in: "/a/b" for "/a/b/c.mp3", "/" for "/a", "." for "a".
    public var parent: FilePath {
        guard let slash = bytes.lastIndex(of: Self.slash) else { return "." }
        return slash == 0 ? "/" : FilePath(trusted: Array(bytes[..<slash]))
    }

    /// The path with `component` (a name or a relative path) added after a "/".
    public func appending(_ component: FilePath) -> FilePath {
        if bytes.isEmpty { return component }
        if component.bytes.isEmpty { return self }
        var joined = bytes
        if joined.last != Self.slash { joined.append(Self.slash) }
        joined += component.bytes.drop { $0 == Self.slash }
        return FilePath(trusted: joined)
    }

    /// Whether the last component starts with "." (a hidden file).
    public var isHidden: Bool { lastComponent.bytes.first == Self.dot }

    /// The extension of the last component as text ("M3U8" of "/x/Mix.M3U8"), or `nil` when
    /// the name has no dot after its first character.
    public var fileExtension: String? {
        let name = lastComponent.bytes
        guard let dot = name.lastIndex(of: Self.dot), dot != name.startIndex else { return nil }
        return Self.displayString(of: name[(dot + 1)...])
    }

    /// Whether the extension, ignoring ASCII case, is one of `extensions` (lower-case).
    public func hasExtension(in extensions: Set<String>) -> Bool {
        guard let ext = fileExtension else { return false }
        return extensions.contains(ext.lowercased())
    }

    /// The last component without its extension, as text: what a title falls back to.
    public var stem: String {
        let name = lastComponent.bytes
        guard let dot = name.lastIndex(of: Self.dot), dot != name.startIndex else {
            return Self.displayString(of: name)
        }
        return Self.displayString(of: name[..<dot])
    }

    /// The path cleaned up lexically: no "//", "." or ".." (a ".." above the root stays at the
    /// root). Symlinks are not followed, so the path reads as it was written.
    public var lexicallyNormalized: FilePath {
        var parts: [ArraySlice<UInt8>] = []
        for part in bytes.split(separator: Self.slash) {
            if part.elementsEqual([Self.dot]) { continue }
            if part.elementsEqual([Self.dot, Self.dot]) {
                if let last = parts.last, !last.elementsEqual([Self.dot, Self.dot]) {
                    parts.removeLast()
                } else if !isAbsolute {
                    parts.append(part)
                }
                continue
            }
            parts.append(part)
        }
        return Self.joined(parts, absolute: isAbsolute)
    }

    /// The absolute form: `self` if absolute, else `base` + `self`; then lexically normalized.
    public func resolved(against base: FilePath) -> FilePath {
        (isAbsolute ? self : base.appending(self)).lexicallyNormalized
    }

    // MARK: Order

    /// A total order on the bytes, for tie-breaks that must not depend on `readdir` order.
    public static func bytewiseLess(_ a: FilePath, _ b: FilePath) -> Bool {
        a.bytes.lexicographicallyPrecedes(b.bytes)
    }
}

/// `strlen` without importing libc into the pure core.
private func strlenOf(_ string: UnsafePointer<CChar>) -> Int {
    var length = 0
    while string[length] != 0 { length += 1 }
    return length
}

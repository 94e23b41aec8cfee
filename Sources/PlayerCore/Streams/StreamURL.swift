/// The address of an internet radio station or of a file served over HTTP(S).
///
/// Comes from outside (a bus call, a playlist line, the state file), so it is checked once,
/// here: only `http` and `https`, a host, at most `maximumLength` bytes, no spaces or control
/// characters. Credentials in it (`http://user:secret@host/`) are used to connect but never
/// shown: `redacted` is what logs, `aubade status` and `xesam:url` get.
public struct StreamURL: Sendable, Hashable, CustomStringConvertible {
    /// As given (with credentials, if any): what the transfer connects to.
    public let text: String

    /// Longer URLs are refused (a hostile playlist could fill memory with one line).
    public static let maximumLength = 8 * 1024

    /// Why a text is not a stream address, in words for an error reply.
    public enum Problem: Error, Equatable, Sendable, CustomStringConvertible {
        case notHTTP
        case tooLong
        case badCharacters
        case noHost

        public var description: String {
            switch self {
            case .notHTTP: return "not an http or https URL"
            case .tooLong: return "URL longer than \(StreamURL.maximumLength) bytes"
            case .badCharacters: return "URL contains spaces or control characters"
            case .noHost: return "URL has no host"
            }
        }
    }

    public init(validating text: String) throws(Problem) {
        let bytes = Array(text.utf8)
        guard bytes.count <= Self.maximumLength else { throw .tooLong }
        guard let scheme = Self.scheme(of: bytes), scheme == "http" || scheme == "https" else { throw .notHTTP }
        guard !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) else { throw .badCharacters }
        let afterScheme = bytes.dropFirst(scheme.utf8.count + 3)
        let authorityEnd = afterScheme.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? afterScheme.endIndex
        let authority = afterScheme[..<authorityEnd]
        let hostPart = authority.lastIndex(of: UInt8(ascii: "@")).map { authority[authority.index(after: $0)...] } ?? authority
        guard !hostPart.isEmpty, hostPart.first != UInt8(ascii: ":") else { throw .noHost }
        self.text = text
    }

    /// Whether `text` looks like it is meant as a stream address (http: or https:), valid or not.
    public static func isStreamAddress(_ text: some StringProtocol) -> Bool {
        guard let scheme = scheme(of: Array(text.utf8.prefix(9))) else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// The address with any `user:password@` removed: safe to log and to publish.
    public var redacted: String {
        guard let schemeEnd = text.firstRange(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(where: Self.endsAuthority) ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        let scheme = String(text[..<schemeEnd.upperBound])
        return scheme + String(rest[rest.index(after: at)...])
    }

    /// The last path component without its query, for a station that names itself nothing.
    public var displayName: String {
        let withoutQuery = redacted.split(separator: "?", maxSplits: 1).first.map(String.init) ?? redacted
        let parts = withoutQuery.split(separator: "/", omittingEmptySubsequences: true)
        if parts.count >= 3, let last = parts.last { return String(last) }
        return parts.count >= 2 ? String(parts[1]) : withoutQuery
    }

    public var description: String { redacted }

    private static func endsAuthority(_ character: Character) -> Bool {
        character == "/" || character == "?" || character == "#"
    }

    /// The lowercased scheme before "://", if the bytes start with one.
    private static func scheme(of bytes: [UInt8]) -> String? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon <= 5,
              bytes.count >= colon + 3, bytes[colon + 1] == UInt8(ascii: "/"), bytes[colon + 2] == UInt8(ascii: "/") else { return nil }
        let scheme = bytes[..<colon]
        guard scheme.allSatisfy({ (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0 | 0x20) }) else { return nil }
        return String(decoding: scheme.map { $0 | 0x20 }, as: UTF8.self)
    }
}

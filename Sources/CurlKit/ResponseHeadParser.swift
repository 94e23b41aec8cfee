/// Collects the header lines of a response as libcurl hands them over, one whole line at a time,
/// keeping only those of the latest response (a redirect's or `100 Continue`'s are dropped
/// when the next status line comes).
///
/// The server is hostile: a line longer than `maximumLineLength` or more than
/// `maximumLineCount` lines in one response end the transfer, so a response's header fields
/// never take more than about `maximumLineLength × maximumLineCount` bytes.
struct ResponseHeadParser {
    static let maximumLineLength = 8 * 1024
    static let maximumLineCount = 100

    enum Outcome: Equatable {
        /// The first line of a (new) response.
        case statusLine
        /// A header field, or a line that is none; more to come.
        case more
        /// The empty line after a response's fields.
        case endOfFields
        /// The line breaks a limit; the transfer must end. The text says which.
        case refused(String)
    }

    private(set) var fields: [(name: String, value: String)] = []
    private var lineCount = 0

    /// Takes one line, with its CR LF.
    mutating func take(_ line: UnsafeRawBufferPointer) -> Outcome {
        guard line.count <= Self.maximumLineLength else {
            return .refused("a response header line is longer than \(Self.maximumLineLength) bytes")
        }
        let content = Self.trimmingLineEnd(line)
        if content.isEmpty { return .endOfFields }
        if Self.isStatusLine(content) {
            // A new response begins (after a redirect or an interim 1xx): forget the last one's.
            fields.removeAll(keepingCapacity: true)
            lineCount = 1
            return .statusLine
        }
        lineCount += 1
        guard lineCount <= Self.maximumLineCount else {
            return .refused("a response has more than \(Self.maximumLineCount) header lines")
        }
        if let field = Self.field(content) { fields.append(field) }
        return .more
    }

    /// Whether the current response has a field `name` (lowercase).
    func has(_ name: String) -> Bool { fields.contains { $0.name == name } }

    private static func trimmingLineEnd(_ line: UnsafeRawBufferPointer) -> Slice<UnsafeRawBufferPointer> {
        var end = line.count
        while end > 0, line[end - 1] == UInt8(ascii: "\n") || line[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        return line[0..<end]
    }

    /// "HTTP/1.1 200 OK", "HTTP/2 200", or SHOUTcast's "ICY 200 OK".
    private static func isStatusLine(_ content: Slice<UnsafeRawBufferPointer>) -> Bool {
        content.starts(with: "HTTP/".utf8) || content.starts(with: "ICY ".utf8)
    }

    /// "Name: value" → ("name", "value"); nil for a line without a colon or without a name
    /// (status lines, obsolete folded continuations).
    private static func field(_ content: Slice<UnsafeRawBufferPointer>) -> (name: String, value: String)? {
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let name = trimmingBlanks(content[content.startIndex..<colon])
        guard !name.isEmpty, !name.contains(where: isBlank) else { return nil }
        let value = trimmingBlanks(content[(colon + 1)..<content.endIndex])
        return (text(name).lowercased(), text(value))
    }

    private static func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }

    private static func trimmingBlanks(_ bytes: Slice<UnsafeRawBufferPointer>) -> Slice<UnsafeRawBufferPointer> {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, isBlank(bytes[start]) { start += 1 }
        while end > start, isBlank(bytes[end - 1]) { end -= 1 }
        return bytes[start..<end]
    }

    /// UTF-8 when valid, else ISO 8859-1 (one byte, one scalar): no byte becomes U+FFFD.
    static func text<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> String {
        if let utf8 = String(validating: bytes, as: UTF8.self) { return utf8 }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: bytes.map { Unicode.Scalar($0) })
        return String(scalars)
    }
}

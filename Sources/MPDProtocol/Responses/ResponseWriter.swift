/// The bytes of an answer: `key: value` lines, binary chunks, `list_OK`, `OK`, `ACK` lines.
///
/// Every value written is cleaned so that nothing from outside (a tag, a file name, a client's
/// own argument echoed in an error) can end the line early or forge one: control characters
/// (C0, DEL) become spaces. Swift strings are valid UTF-8, so the bytes are too.
///
/// The buffer grows without limit: the server decides when an answer is too big (mpd closes the
/// client past 8 MiB) by looking at `bytes.count` as it goes.
public struct ResponseWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// The last `Last-Modified` written (see `ResponseWriter.song`).
    var lastTimestamp: (seconds: Int64, text: String)?

    public init() {}

    /// The greeting a client reads first.
    public static let greeting = "OK MPD \(mpdProtocolVersion)\n"

    /// `key: value\n`. The key is ours (a constant or a tag name) and written as is.
    public mutating func line(_ key: String, _ value: String) {
        bytes.append(contentsOf: key.utf8)
        bytes.append(contentsOf: ": ".utf8)
        appendCleaned(value)
        bytes.append(UInt8(ascii: "\n"))
    }

    public mutating func line(_ key: String, _ value: some BinaryInteger) {
        line(key, String(value))
    }

    /// `binary: N\n`, the bytes, `\n` (`albumart`, `readpicture`; the `size:` line before it is the
    /// caller's).
    public mutating func binary(_ data: some Collection<UInt8>) {
        line("binary", data.count)
        bytes.append(contentsOf: data)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// The end of a successful answer.
    public mutating func ok() {
        bytes.append(contentsOf: "OK\n".utf8)
    }

    /// After each successful command of a `command_list_ok_begin` list.
    public mutating func listOK() {
        bytes.append(contentsOf: "list_OK\n".utf8)
    }

    /// `ACK [code@index] {command} message\n`: the end of a failed answer.
    public mutating func ack(_ error: MPDError, listIndex: Int) {
        bytes.append(contentsOf: "ACK [\(error.code.rawValue)@\(listIndex)] {".utf8)
        appendCleaned(error.command)
        bytes.append(contentsOf: "} ".utf8)
        appendCleaned(error.message)
        bytes.append(UInt8(ascii: "\n"))
    }

    /// Raw text, for what has no `key: value` shape (`0:file: x` of `playlist`). Cleaned too.
    mutating func raw(_ text: String) {
        appendCleaned(text)
    }

    /// Empties the buffer, keeping its memory, once the server has sent the bytes.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
    }

    private mutating func appendCleaned(_ text: String) {
        var text = text
        // Nearly every value is clean: then it is copied whole (contiguous UTF-8), not a byte at
        // a time, which was a seventh of an `lsinfo` of a big folder.
        let copied: Bool = text.withUTF8 { utf8 in
            guard !utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        guard !copied else { return }
        for byte in text.utf8 {
            bytes.append(byte < 0x20 || byte == 0x7F ? UInt8(ascii: " ") : byte)
        }
    }
}

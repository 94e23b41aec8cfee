/// One line from a client as mpd reads it: its bytes up to the first NUL, with trailing white
/// space — every byte up to 0x20, control characters included — stripped.
///
/// mpd keeps the line as a C string, so a NUL ends it ("ping\0junk" is "ping"); what follows the
/// NUL is dropped here too. Bytes need not be UTF-8: arguments are decoded after tokenizing,
/// with invalid sequences replaced by U+FFFD (mpd passes them on and finds nothing that matches;
/// a replacement character finds nothing either).
public struct RequestLine: Sendable, Hashable {
    public let bytes: [UInt8]

    public init(_ raw: some Collection<UInt8>) {
        var bytes = [UInt8]()
        bytes.reserveCapacity(raw.count)
        for byte in raw {
            if byte == 0 { break }
            bytes.append(byte)
        }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        self.bytes = bytes
    }

    init(normalized bytes: ArraySlice<UInt8>) {
        self.bytes = Array(bytes)
    }

    /// mpd's first check: every MPD command starts with a lower-case letter. Anything else (an
    /// empty line, an HTTP request sent to the wrong port) is not the MPD protocol: mpd closes.
    public var startsLikeACommand: Bool {
        guard let first = bytes.first else { return false }
        return (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first)
    }

    /// The line is exactly this keyword (`noidle`, `command_list_end`…).
    func isKeyword(_ keyword: String) -> Bool {
        bytes.elementsEqual(keyword.utf8)
    }

    /// The command name and arguments, as mpd's tokenizer reads them.
    public func request() throws(MPDError) -> MPDRequest {
        try MPDRequest(tokenizing: bytes)
    }
}

/// The commands one line or one command list asks to run, in order. The index of each is the
/// `@index` of its ACK.
///
/// The server runs them one by one: parse (`line.request()`, then `MPDCommand`), run, and on the
/// first failure write its ACK and stop (closing the connection if the error says so); after
/// each success in a `command_list_ok_begin` list write `list_OK`; after the last, `OK`.
/// Within a list, mpd also stops at `idle` (the client is then idling; no `OK` is written) and at
/// `close` (the connection ends), as it would for a single line.
public struct CommandBatch: Sendable, Hashable, RandomAccessCollection {
    private let storage: [UInt8]
    private let ends: [Int]
    /// The lines came between `command_list_begin` and `command_list_end`.
    public let isList: Bool
    /// `command_list_ok_begin`: `list_OK` after each successful command.
    public let sendsListOK: Bool

    init(storage: [UInt8], ends: [Int], isList: Bool, sendsListOK: Bool) {
        self.storage = storage
        self.ends = ends
        self.isList = isList
        self.sendsListOK = sendsListOK
    }

    init(single line: RequestLine) {
        self.init(storage: line.bytes, ends: [line.bytes.count], isList: false, sendsListOK: false)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ends.count }

    public subscript(index: Int) -> RequestLine {
        let start = index == 0 ? 0 : ends[index - 1]
        return RequestLine(normalized: storage[start..<ends[index]])
    }
}

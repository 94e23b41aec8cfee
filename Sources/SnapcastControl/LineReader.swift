/// Splits what arrives on stdin into lines, bounded: a line longer than `limit` bytes is not
/// kept (its bytes are dropped as they come, up to its newline) and reported once as too
/// long, so a client that never sends a newline cannot grow the memory.
public struct LineReader: Sendable {
    public enum Item: Equatable, Sendable {
        case line([UInt8])
        /// A line went past the limit (it is being skipped to its end).
        case tooLong
    }

    public let limit: Int
    private var buffer: [UInt8] = []
    private var skipping = false

    public init(limit: Int) {
        self.limit = max(limit, 1)
    }

    /// Takes `bytes` and returns the complete lines (without the newline; a trailing "\r" is
    /// dropped too) and the overlong ones, in order.
    public mutating func feed(_ bytes: some Sequence<UInt8>) -> [Item] {
        var items: [Item] = []
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                if skipping {
                    skipping = false
                } else {
                    if buffer.last == UInt8(ascii: "\r") { buffer.removeLast() }
                    items.append(.line(buffer))
                }
                buffer.removeAll(keepingCapacity: buffer.capacity <= 4096)
                continue
            }
            guard !skipping else { continue }
            if buffer.count >= limit {
                skipping = true
                buffer.removeAll()
                items.append(.tooLong)
                continue
            }
            buffer.append(byte)
        }
        return items
    }

    /// Bytes held of the current line (at most `limit`).
    public var pendingCount: Int { buffer.count }
}

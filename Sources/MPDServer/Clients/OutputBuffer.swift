/// What waits to be written to one client: bytes, written in order, with the part already sent
/// dropped now and then (not on every write: a slow reader of a long answer would make that
/// quadratic).
struct OutputBuffer {
    private var bytes: [UInt8] = []
    private var sent = 0

    var isEmpty: Bool { sent == bytes.count }
    /// Bytes not yet written.
    var count: Int { bytes.count - sent }

    mutating func append(_ more: [UInt8]) {
        if isEmpty {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
            sent = 0
        }
        bytes.append(contentsOf: more)
    }

    /// Hands the unsent bytes to `write`, which says how many it took.
    mutating func drain(_ write: (UnsafeRawBufferPointer) -> Int?) -> Bool {
        guard !isEmpty else { return true }
        let taken = bytes.withUnsafeBytes { all in write(UnsafeRawBufferPointer(rebasing: all[sent...])) }
        guard let taken else { return false }
        sent += taken
        if isEmpty {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 1 << 20)
            sent = 0
        } else if sent > 1 << 20, sent > bytes.count / 2 {
            bytes.removeFirst(sent)
            sent = 0
        }
        return true
    }
}

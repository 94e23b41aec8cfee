/// Decoded PCM waiting to be sent, in order; bounded by how the session fills it (one
/// request's worth plus one frame of audio).
struct PCMQueue {
    private var bytes: [UInt8] = []
    private var start = 0

    var count: Int { bytes.count - start }
    var isEmpty: Bool { count == 0 }

    mutating func append(_ more: [UInt8]) {
        if start > 0, start == bytes.count {
            bytes.removeAll(keepingCapacity: true)
            start = 0
        }
        bytes.append(contentsOf: more)
    }

    /// Up to `limit` bytes from the front.
    mutating func take(_ limit: Int) -> ArraySlice<UInt8> {
        let count = min(limit, self.count)
        defer {
            start += count
            if start > 256 * 1024 {
                bytes.removeFirst(start)
                start = 0
            }
        }
        return bytes[start..<(start + count)]
    }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        start = 0
    }
}

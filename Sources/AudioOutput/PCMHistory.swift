/// The last bytes written into the Snapcast pipe, by their offset in the output's stream: what
/// a resume writes again from the point the rooms had heard at the pause. A ring of fixed
/// capacity (the server's buffer and a second), so memory is bounded whatever plays.
struct PCMHistory: Sendable {
    private var storage: [UInt8]
    /// The offset just after the newest byte.
    private(set) var end: Int64 = 0
    private(set) var count = 0

    init(capacity: Int) {
        storage = [UInt8](repeating: 0, count: max(capacity, 1))
    }

    var capacity: Int { storage.count }
    /// The oldest offset still held.
    var start: Int64 { end - Int64(count) }

    /// Forgets everything; the next byte appended has offset `offset`.
    mutating func reset(at offset: Int64) {
        end = offset
        count = 0
    }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let capacity = storage.count
        // Only the last `capacity` bytes of a big append can stay.
        let skip = max(0, bytes.count - capacity)
        var position = Int(end % Int64(capacity))
        position = (position + skip) % capacity
        storage.withUnsafeMutableBytes { ring in
            var index = skip
            while index < bytes.count {
                let run = min(bytes.count - index, capacity - position)
                ring.baseAddress!.advanced(by: position).copyMemory(from: bytes.baseAddress!.advanced(by: index), byteCount: run)
                index += run
                position = (position + run) % capacity
            }
        }
        end += Int64(bytes.count)
        count = min(count + bytes.count, capacity)
    }

    /// The bytes from `offset` (clamped to what is held) to the end. The ring drops whole
    /// appends' heads only, so `start` stays on the frame grid when every append is whole frames
    /// and the capacity is a multiple of the frame size.
    func bytes(from offset: Int64) -> [UInt8] {
        let from = min(max(offset, start), end)
        let length = Int(end - from)
        guard length > 0 else { return [] }
        let capacity = storage.count
        var out = [UInt8](repeating: 0, count: length)
        var position = Int(from % Int64(capacity))
        var index = 0
        while index < length {
            let run = min(length - index, capacity - position)
            out[index..<(index + run)] = storage[position..<(position + run)]
            index += run
            position = (position + run) % capacity
        }
        return out
    }

    /// Drops the bytes from `offset` on (they will be written again).
    mutating func truncate(to offset: Int64) {
        let to = min(max(offset, start), end)
        count -= Int(end - to)
        end = to
    }
}

import Glibc

/// A fixed-capacity FIFO of bytes: the bounded buffer between the decoder and the stream.
///
/// Not thread-safe by itself: `DecodeAhead` keeps it inside its lock. Allocated once, so the
/// PulseAudio thread's copy out of it never allocates.
final class ByteRing {
    let capacity: Int
    private let storage: UnsafeMutableRawBufferPointer
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 1)
        storage = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    var freeSpace: Int { capacity - count }

    /// Appends as much of `bytes` as fits; returns how much that was.
    func write(_ bytes: UnsafeRawBufferPointer) -> Int {
        let total = min(bytes.count, freeSpace)
        guard total > 0, let source = bytes.baseAddress, let base = storage.baseAddress else { return 0 }
        let tail = (head + count) % capacity
        let first = min(total, capacity - tail)
        memcpy(base + tail, source, first)
        if total > first { memcpy(base, source + first, total - first) }
        count += total
        return total
    }

    /// Moves up to `buffer.count` bytes out; returns how many.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let total = min(buffer.count, count)
        guard total > 0, let target = buffer.baseAddress, let base = storage.baseAddress else { return 0 }
        let first = min(total, capacity - head)
        memcpy(target, base + head, first)
        if total > first { memcpy(target + first, base, total - first) }
        head = (head + total) % capacity
        count -= total
        return total
    }
}

import Glibc

/// A fixed-capacity FIFO of bytes: the bounded buffer between a producer and a consumer
/// thread (a track's decoder and the PulseAudio thread; libcurl's write callback and the
/// stream's decoder).
///
/// Not thread-safe by itself: its owner keeps it inside a lock. Allocated once, so a copy out
/// of it never allocates (the PulseAudio thread's must not).
public final class ByteRing {
    public let capacity: Int
    private let storage: UnsafeMutableRawBufferPointer
    private var head = 0
    public private(set) var count = 0

    public init(capacity: Int) {
        self.capacity = max(capacity, 1)
        storage = .allocate(byteCount: self.capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    public var freeSpace: Int { capacity - count }

    /// Appends as much of `bytes` as fits; returns how much that was.
    public func write(_ bytes: UnsafeRawBufferPointer) -> Int {
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
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
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

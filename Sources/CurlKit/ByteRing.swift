/// A fixed-capacity FIFO of bytes: the bounded buffer between libcurl's write callback and the
/// reader. (AudioOutput has its own for PCM; the modules do not depend on each other.)
///
/// Not thread-safe by itself: `TransferCore` keeps it inside its lock. Allocated once.
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
        (base + tail).copyMemory(from: source, byteCount: first)
        if total > first { base.copyMemory(from: source + first, byteCount: total - first) }
        count += total
        return total
    }

    /// Moves up to `buffer.count` bytes out; returns how many.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let total = min(buffer.count, count)
        guard total > 0, let target = buffer.baseAddress, let base = storage.baseAddress else { return 0 }
        let first = min(total, capacity - head)
        target.copyMemory(from: base + head, byteCount: first)
        if total > first { (target + first).copyMemory(from: base, byteCount: total - first) }
        head = (head + total) % capacity
        count -= total
        return total
    }
}

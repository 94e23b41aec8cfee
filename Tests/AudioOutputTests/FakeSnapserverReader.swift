import AudioOutput
import Foundation
import Glibc

/// What snapserver does with a `pipe://` source, for the output's tests: holds the FIFO open
/// for reading and reads one 20 ms chunk (3 840 bytes at 48 kHz stereo) every 20 ms on its own
/// clock, taking whatever is there (snapserver pads a short chunk with silence). Keeps every
/// byte read with the time it was read. The integration tests use the real snapserver.
final class FakeSnapserverReader: @unchecked Sendable {
    static let chunkBytes = 3_840
    let path: String
    private let lock = NSLock()
    private var reads: [(time: ContinuousClock.Instant, bytes: [UInt8])] = []
    private var descriptor: Int32 = -1
    private var running = true
    private var thread: Thread?

    /// Makes the FIFO (as snapserver's mode=create does) and starts reading it.
    init(path: String) throws {
        self.path = path
        if mkfifo(path, 0o600) != 0 && errno != EEXIST { throw FakeError("mkfifo \(path): errno \(errno)") }
        try open()
    }

    func open() throws {
        let fd = Glibc.open(path, O_RDONLY | O_NONBLOCK)
        guard fd >= 0 else { throw FakeError("open \(path): errno \(errno)") }
        lock.withLock {
            descriptor = fd
            running = true
        }
        let thread = Thread { [self] in loop(fd) }
        self.thread = thread
        thread.start()
    }

    /// Closes its end, as a snapserver that died.
    func close() {
        let fd = lock.withLock { () -> Int32 in
            running = false
            defer { descriptor = -1 }
            return descriptor
        }
        // Let the loop see `running` before the descriptor goes.
        Thread.sleep(forTimeInterval: 0.05)
        if fd >= 0 { Glibc.close(fd) }
    }

    private func loop(_ fd: Int32) {
        var next = ContinuousClock.now
        var chunk = [UInt8](repeating: 0, count: Self.chunkBytes)
        while lock.withLock({ running }) {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count > 0 {
                let now = ContinuousClock.now
                lock.withLock { reads.append((now, Array(chunk[0..<count]))) }
            }
            next += .milliseconds(20)
            let wait = next - ContinuousClock.now
            if wait > .zero { Thread.sleep(forTimeInterval: Double(wait.components.attoseconds) / 1e18 + Double(wait.components.seconds)) }
        }
    }

    /// Every byte read so far.
    var bytes: [UInt8] { lock.withLock { reads.flatMap(\.bytes) } }

    /// When the byte at `offset` (of everything read) was read.
    func readTime(ofByte offset: Int) -> ContinuousClock.Instant? {
        lock.withLock {
            var total = 0
            for read in reads {
                total += read.bytes.count
                if total > offset { return read.time }
            }
            return nil
        }
    }

    deinit {
        close()
        unlink(path)
    }
}

struct FakeError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A stereo source whose frame n holds n: left its low 15 bits, right the rest, so every frame
/// read back says where in the source it came from.
func countingSource(frames: Int, format: PCMFormat = PCMFormat(sampleRate: 48_000, channels: 2)) -> PCMSource {
    final class Counter { var next = 0 }
    let counter = Counter()
    return PCMSource(format: format) { buffer in
        let count = min(buffer.count / 4, frames - counter.next)
        for index in 0..<count {
            let value = counter.next + index
            buffer.storeBytes(of: Int16(value & 0x7FFF), toByteOffset: index * 4, as: Int16.self)
            buffer.storeBytes(of: Int16(value >> 15), toByteOffset: index * 4 + 2, as: Int16.self)
        }
        counter.next += count
        return count * 4
    }
}

/// The frame numbers of `countingSource` in `bytes` (silence reads as 0).
func frameNumbers(_ bytes: [UInt8]) -> [Int] {
    stride(from: 0, to: bytes.count - 3, by: 4).map { offset in
        let low = Int(UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8)
        let high = Int(Int16(bitPattern: UInt16(bytes[offset + 2]) | UInt16(bytes[offset + 3]) << 8))
        return high << 15 | low
    }
}

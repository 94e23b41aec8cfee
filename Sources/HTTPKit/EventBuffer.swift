/// The bytes an event stream has yet to hand libmicrohttpd, and the server-sent events format.
/// Not thread-safe by itself: `EventStream` keeps it under its lock.
struct EventBuffer {
    private var bytes: [UInt8] = []
    private var start = 0

    var count: Int { bytes.count - start }

    mutating func append(_ new: [UInt8]) {
        bytes.append(contentsOf: new)
    }

    /// Moves up to `target.count` bytes out; returns how many.
    mutating func take(into target: UnsafeMutableRawBufferPointer) -> Int {
        let total = min(target.count, count)
        guard total > 0 else { return 0 }
        bytes.withUnsafeBytes { source in
            target.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + total)]))
        }
        start += total
        // Drop what was sent once it is most of the array, so the array does not creep.
        if start == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= 64 * 1024)
            start = 0
        } else if start >= 64 * 1024 && start * 2 >= bytes.count {
            bytes.removeSubrange(0..<start)
            start = 0
        }
        return total
    }

    mutating func removeAll() {
        bytes = []
        start = 0
    }

    /// `event: NAME` (if any) and one `data:` line per line of `data`, then the blank line that
    /// ends the event. CR and LF cannot be part of a name, and any line break in the data
    /// starts a new `data:` line (the client joins them back with LF).
    static func event(named name: String?, data: String) -> [UInt8] {
        var encoded: [UInt8] = []
        encoded.reserveCapacity(data.utf8.count + 32)
        if let name {
            encoded += Array("event: ".utf8)
            encoded += name.utf8.filter { $0 != UInt8(ascii: "\r") && $0 != UInt8(ascii: "\n") }
            encoded.append(UInt8(ascii: "\n"))
        }
        let lines = data.utf8.split(omittingEmptySubsequences: false) { $0 == UInt8(ascii: "\n") }
        for line in lines {
            encoded += Array("data: ".utf8)
            var previousWasCR = false
            for byte in line {
                if byte == UInt8(ascii: "\r") {
                    encoded += Array("\ndata: ".utf8)
                    previousWasCR = true
                } else {
                    encoded.append(byte)
                    previousWasCR = false
                }
            }
            // CRLF: the CR already broke the line, the LF adds no empty one.
            if previousWasCR { encoded.removeLast("data: ".utf8.count + 1) }
            encoded.append(UInt8(ascii: "\n"))
        }
        encoded.append(UInt8(ascii: "\n"))
        return encoded
    }

    /// A comment line: clients ignore it, proxies and phones see traffic.
    static let ping: [UInt8] = Array(": ping\n\n".utf8)
}

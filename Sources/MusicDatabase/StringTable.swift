/// Every distinct string of the library stored once, by its bytes: tag values (an artist's
/// name is kept once however many songs carry it), file and folder names, both as shown and,
/// for the few that are not UTF-8, as on disk. A string is named by its id, a `UInt32`.
///
/// Strings are kept end to end in one byte array (no object per string); a hash table of ids
/// finds a string's id from its bytes. Equality is by bytes, as mpd compares tag values
/// (`strcmp`): "é" and "e\u{301}" are two values, though Swift's `String` calls them equal.
/// Id 0 is always the empty string. A value type: copies share storage until one grows.
struct StringTable: Sendable {
    private(set) var bytes: [UInt8] = []
    /// The end offset of each string in `bytes`; string `i` starts where `i - 1` ends.
    private(set) var ends: [UInt32] = []
    /// Open addressing: 0 is an empty slot, otherwise id + 1. Always at most half full.
    private var slots: [UInt32] = Array(repeating: 0, count: 16)
    /// Randomly seeded per process (`Hasher`), so tag values made to collide cannot slow it.
    private static func hash(_ bytes: UnsafeRawBufferPointer) -> Int {
        var hasher = Hasher()
        hasher.combine(bytes: bytes)
        return hasher.finalize()
    }

    /// The most bytes the table holds; a value that would not fit is stored as "".
    static let capacity = Int(UInt32.max) - 1

    init() {
        _ = intern(EmptyCollection<UInt8>())
    }

    var count: Int { ends.count }

    func range(of id: UInt32) -> Range<Int> {
        let index = Int(id)
        let start = index == 0 ? 0 : Int(ends[index - 1])
        return start..<Int(ends[index])
    }

    func withBytes<R>(of id: UInt32, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let range = range(of: id)
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    func string(_ id: UInt32) -> String {
        withBytes(of: id) { String(decoding: $0, as: UTF8.self) }
    }

    func byteArray(_ id: UInt32) -> [UInt8] {
        Array(bytes[range(of: id)])
    }

    /// The id of a string equal (by bytes) to `value`, if the table has one.
    func id(of value: some Collection<UInt8>) -> UInt32? {
        let key = ContiguousArray(value)
        return key.withUnsafeBytes { find($0).found }
    }

    func id(of text: String) -> UInt32? { id(of: text.utf8) }

    private func find(_ key: UnsafeRawBufferPointer) -> (found: UInt32?, slot: Int) {
        let mask = slots.count - 1
        var slot = Self.hash(key) & mask
        return bytes.withUnsafeBytes { stored in
            while true {
                let entry = slots[slot]
                if entry == 0 { return (nil, slot) }
                let range = self.range(of: entry - 1)
                if range.count == key.count, memcmpEqual(UnsafeRawBufferPointer(rebasing: stored[range]), key) {
                    return (entry - 1, slot)
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// The id of `value`, added if new.
    @discardableResult
    mutating func intern(_ value: some Collection<UInt8>) -> UInt32 {
        let key = ContiguousArray(value)
        return key.withUnsafeBytes { key in
            let (found, slot) = find(key)
            if let found { return found }
            guard bytes.count + key.count <= Self.capacity, ends.count < Int(UInt32.max) else { return 0 }
            let id = UInt32(ends.count)
            bytes.append(contentsOf: key)
            ends.append(UInt32(bytes.count))
            slots[slot] = id + 1
            if ends.count * 2 > slots.count { rehash(slots.count * 2) }
            return id
        }
    }

    mutating func intern(_ text: String) -> UInt32 { intern(text.utf8) }

    private mutating func rehash(_ size: Int) {
        var table = [UInt32](repeating: 0, count: size)
        let mask = size - 1
        bytes.withUnsafeBytes { stored in
            for id in 0..<ends.count {
                var slot = Self.hash(UnsafeRawBufferPointer(rebasing: stored[range(of: UInt32(id))])) & mask
                while table[slot] != 0 { slot = (slot + 1) & mask }
                table[slot] = UInt32(id) + 1
            }
        }
        slots = table
    }

    /// Compares two strings by their bytes (mpd's `strcmp` order of `list` and `count`).
    func bytesPrecede(_ a: UInt32, _ b: UInt32) -> Bool {
        if a == b { return false }
        return bytes.withUnsafeBufferPointer { stored in
            let x = stored[range(of: a)], y = stored[range(of: b)]
            let common = min(x.count, y.count)
            if common > 0 {
                let order = memcmp(stored.baseAddress! + x.startIndex, stored.baseAddress! + y.startIndex, common)
                if order != 0 { return order < 0 }
            }
            return x.count < y.count
        }
    }

    /// Bytes of memory the table holds (for the memory figure).
    var footprint: Int { bytes.capacity + ends.capacity * 4 + slots.capacity * 4 }
}

private func memcmpEqual(_ a: UnsafeRawBufferPointer, _ b: UnsafeRawBufferPointer) -> Bool {
    guard a.count == b.count else { return false }
    guard a.count > 0 else { return true }
    return memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

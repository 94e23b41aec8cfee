#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Case folding for `search` (a StringMatch with `foldCase`).
///
/// mpd folds both sides with ICU's `u_strFoldCase` (Unicode full case folding) and compares the
/// folded UTF-8 bytes. Swift's standard library has no case folding; this uses `lowercased()`
/// (Unicode's default lowercase mapping), which agrees with folding for nearly all text, and
/// adds the two differences that matter for European names: "ß"/"ẞ" fold to "ss", final
/// sigma "ς" to "σ". (Still different: a few compatibility characters, such as "ﬁ", that full
/// folding expands and lowercasing keeps.) ASCII text, nearly all tag values, takes a fast path
/// that allocates nothing.
enum CaseFolding {
    static func fold(_ text: String) -> String {
        var folded = text.lowercased()
        if folded.unicodeScalars.contains(where: { $0 == "ß" || $0 == "ς" }) {
            folded = String(String.UnicodeScalarView(folded.unicodeScalars.flatMap { scalar -> [Unicode.Scalar] in
                switch scalar {
                case "ß": return ["s", "s"]
                case "ς": return ["σ"]
                default: return [scalar]
                }
            }))
        }
        return folded
    }

    /// The folded bytes of UTF-8 `bytes`, written into `buffer` (reused between calls).
    static func fold(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: inout [UInt8]) {
        buffer.removeAll(keepingCapacity: true)
        var ascii = true
        for byte in bytes {
            if byte >= 0x80 { ascii = false; break }
            buffer.append(byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte)
        }
        guard !ascii else { return }
        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: fold(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    /// Whether `needle` occurs in `haystack` (bytes; an empty needle always does).
    static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: UnsafeBufferPointer<UInt8>) -> Bool {
        guard needle.count > 0 else { return true }
        guard haystack.count >= needle.count, let h = haystack.baseAddress, let n = needle.baseAddress else { return false }
        // memchr for the first byte, memcmp for the rest (glibc's memmem is not imported).
        let first = Int32(n[0])
        var offset = 0
        let last = haystack.count - needle.count
        while offset <= last {
            guard let hit = memchr(h + offset, first, last - offset + 1) else { return false }
            let at = h.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            if needle.count == 1 || memcmp(h + at + 1, n + 1, needle.count - 1) == 0 { return true }
            offset = at + 1
        }
        return false
    }
}

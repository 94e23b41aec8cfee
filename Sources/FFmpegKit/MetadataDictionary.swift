internal import CFFmpeg

/// An `AVDictionary` read into Swift: key/value pairs in FFmpeg's order, capped.
public typealias MetadataPairs = [(key: String, value: String)]

enum MetadataDictionary {
    /// Pairs are read up to these caps: a file with a million tags or a megabyte title must
    /// not take the helper's memory (its answer to the daemon is capped the same way).
    static let pairLimit = 256
    static let valueLimit = 64 * 1024

    static func pairs(_ dictionary: OpaquePointer?) -> MetadataPairs {
        guard let dictionary else { return [] }
        var result: MetadataPairs = []
        var entry: UnsafeMutablePointer<AVDictionaryEntry>?
        while result.count < pairLimit {
            entry = av_dict_get(dictionary, "", entry, AV_DICT_IGNORE_SUFFIX)
            guard let found = entry, let key = found.pointee.key, let value = found.pointee.value else { break }
            result.append((text(key, limit: 256), text(value, limit: valueLimit)))
        }
        return result
    }

    /// A C string as text, at most `limit` bytes (invalid UTF-8 repaired).
    static func text(_ pointer: UnsafePointer<CChar>, limit: Int) -> String {
        let length = strnlen(pointer, limit)
        return pointer.withMemoryRebound(to: UInt8.self, capacity: length) {
            String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
        }
    }

    /// Options for an `avformat_open_input` or `avio_open2`: a dictionary FFmpeg may consume
    /// (what it leaves is freed by the caller with `av_dict_free`).
    static func make(_ options: [(String, String)]) -> OpaquePointer? {
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        return dictionary
    }
}

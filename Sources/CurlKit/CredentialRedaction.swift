/// Takes `user:password@` out of every URL in a text, so that failure messages can be logged.
///
/// libcurl's error sentences name hosts, not credentials, but ours quote URLs, and a future
/// libcurl may quote more: every message passes through here.
enum CredentialRedaction {
    /// `text` with the userinfo of each `scheme://userinfo@host` removed.
    static func redacting(_ text: String) -> String {
        var bytes = Array(text.utf8)
        var searchFrom = 0
        while let separator = find(Array("://".utf8), in: bytes, from: searchFrom) {
            let authorityStart = separator + 3
            // The authority ends at the path, query, fragment, or anything a URL cannot hold.
            var authorityEnd = authorityStart
            while authorityEnd < bytes.count, !endsAuthority(bytes[authorityEnd]) { authorityEnd += 1 }
            // The last "@" ends the userinfo: a password may itself contain an (unescaped) "@".
            if let at = bytes[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) {
                bytes.removeSubrange(authorityStart...at)
            }
            searchFrom = authorityStart
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func endsAuthority(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: " "),
             UInt8(ascii: "\""), UInt8(ascii: "'"), UInt8(ascii: "<"), UInt8(ascii: ">"):
            return true
        default:
            return byte < 0x21 || byte == 0x7F
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}

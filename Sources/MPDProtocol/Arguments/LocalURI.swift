/// mpd's `uri_safe_local`: a path inside the library with no empty, `.` or `..` segment.
///
/// The algorithm is mpd's, quirks included (after a segment of three or more dots the next
/// slash is skipped), so that the same paths are refused with the same answer.
enum LocalURI {
    static func isSafe(_ uri: String) -> Bool {
        let bytes = Array(uri.utf8)
        var index = 0
        while true {
            var dots = 0
            while index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                dots += 1
            }
            if dots <= 2, index == bytes.count || bytes[index] == UInt8(ascii: "/") { return false }
            // strchr(p + 1, '/'): the search starts one byte on, whatever that byte is.
            var slash = index + 1
            while slash < bytes.count, bytes[slash] != UInt8(ascii: "/") { slash += 1 }
            if slash >= bytes.count { return true }
            index = slash + 1
        }
    }
}

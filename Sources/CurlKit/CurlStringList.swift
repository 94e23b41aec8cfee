internal import CCurl

/// A `struct curl_slist` (request header lines, HTTP 200 aliases), freed in `deinit`.
///
/// libcurl keeps the pointer, not a copy: `CurlEasy` holds the list as long as the handle.
final class CurlStringList {
    private(set) var head: UnsafeMutablePointer<curl_slist>?

    init(_ lines: [String]) throws(CurlCallError) {
        for line in lines {
            guard !line.utf8.contains(0) else {
                throw CurlCallError(function: "curl_slist_append", message: "a line contains a NUL byte")
            }
            // curl_slist_append returns the (possibly new) head, or NULL and leaves the list as it was.
            guard let appended = line.withCString({ aubade_curl_slist_append(head, $0) }) else {
                throw CurlCallError(function: "curl_slist_append", message: "out of memory")
            }
            head = appended
        }
    }

    deinit { aubade_curl_slist_free_all(head) }
}

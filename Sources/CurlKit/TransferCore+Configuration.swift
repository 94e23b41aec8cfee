import Glibc
internal import CCurl

/// CURLOPT_OPENSOCKETFUNCTION: the socket libcurl asks for, with SOCK_CLOEXEC (atomic: no
/// window in which another thread's fork could inherit it). libcurl makes it non-blocking.
let openCloseOnExecSocket: curl_opensocket_callback = { _, _, address in
    guard let address else { return CURL_SOCKET_BAD }
    return socket(address.pointee.family, address.pointee.socktype | Int32(SOCK_CLOEXEC.rawValue),
                  address.pointee.protocol)
}

extension TransferCore {
    /// The answer SHOUTcast v1 servers give instead of an HTTP status line. Without it as a
    /// CURLOPT_HTTP200ALIASES entry libcurl takes the response for HTTP/0.9 and refuses it.
    static let shoutcastStatusLines = ["ICY 200 OK"]

    /// Makes the easy handle and sets every option. Transfer thread, before it joins the multi.
    func prepare() throws(CurlCallError) {
        let easy = try CurlEasy()
        self.easy = easy
        try refuseHostileRequest()
        let me = Unmanaged.passUnretained(self).toOpaque()

        try easy.set(CURLOPT_URL, string: request.url)
        // No SIGALRM for DNS timeouts: signals in a multi-threaded daemon are not ours to use.
        try easy.set(CURLOPT_NOSIGNAL, true)
        // Nothing but HTTP(S), also where a redirect points (no file://, no gopher://).
        try easy.set(CURLOPT_PROTOCOLS_STR, string: "http,https")
        try easy.set(CURLOPT_REDIR_PROTOCOLS_STR, string: "http,https")
        try easy.set(CURLOPT_FOLLOWLOCATION, true)
        // -1 would be "no limit" to libcurl.
        try easy.set(CURLOPT_MAXREDIRS, min(max(request.maxRedirects, 0), 100))
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Milliseconds.of(request.connectTimeout))
        // Both are libcurl's defaults; set so that no later edit can quietly lose them.
        try easy.set(CURLOPT_SSL_VERIFYPEER, true)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        if let caFile = request.caFile {
            try easy.set(CURLOPT_CAINFO, string: caFile)
            // Trust that bundle alone, not also the system's directory of CAs.
            try easy.clear(CURLOPT_CAPATH)
        }
        // The body as sent: audio is compressed already, and we count its bytes.
        try easy.set(CURLOPT_ACCEPT_ENCODING, string: "identity")
        try easy.set(CURLOPT_HTTP200ALIASES, list: Self.shoutcastStatusLines)
        // A radio stream is one connection for hours: notice a dead peer behind a NAT.
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        try easy.set(CURLOPT_TCP_KEEPIDLE, 30)
        try easy.set(CURLOPT_TCP_KEEPINTVL, 15)
        try easy.set(CURLOPT_USERAGENT, string: request.userAgent)
        if !request.headers.isEmpty { try easy.set(CURLOPT_HTTPHEADER, list: request.headers) }
        if let start = request.rangeStart {
            // CURLOPT_RANGE, not RESUME_FROM: the caller sees a 200 and decides, instead of
            // libcurl failing a server that ignores ranges.
            try easy.set(CURLOPT_RANGE, string: "\(start)-")
        }
        // libcurl 7.88 opens its sockets without close-on-exec: a child started meanwhile
        // would hold the connection to the radio station open after we close it.
        try easy.set(CURLOPT_OPENSOCKETFUNCTION, callback: openCloseOnExecSocket)
        try easy.set(CURLOPT_WRITEFUNCTION, callback: transferBodyCallback)
        try easy.set(CURLOPT_WRITEDATA, pointer: me)
        try easy.set(CURLOPT_HEADERFUNCTION, callback: transferHeaderCallback)
        try easy.set(CURLOPT_HEADERDATA, pointer: me)
    }

    /// What libcurl would pass on as given but must not be: header injection, a negative range.
    private func refuseHostileRequest() throws(CurlCallError) {
        let forbidden: Set<UInt8> = [0, UInt8(ascii: "\r"), UInt8(ascii: "\n")]
        for line in request.headers + [request.userAgent] where line.utf8.contains(where: forbidden.contains) {
            throw CurlCallError(function: "curl_easy_setopt(HTTPHEADER)",
                                message: "a request header contains CR, LF or NUL")
        }
        if let start = request.rangeStart, start < 0 {
            throw CurlCallError(function: "curl_easy_setopt(RANGE)", message: "rangeStart \(start) is negative")
        }
    }
}

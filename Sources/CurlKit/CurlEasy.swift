internal import CCurl

/// One `CURL *` easy handle: the options of one transfer and what libcurl learned about it.
///
/// Not thread-safe: CurlKit touches it on the transfer thread only. Owns the memory libcurl
/// keeps pointers to (the error buffer, string lists), so that it outlives the handle:
/// `deinit` runs `curl_easy_cleanup` first, then frees them.
final class CurlEasy {
    let handle: UnsafeMutableRawPointer
    /// CURLOPT_ERRORBUFFER: libcurl writes a sentence about the last failure here.
    private let errorBuffer: UnsafeMutablePointer<CChar>
    /// Lists set with `set(_:list:)`; libcurl does not copy them.
    private var keptLists: [CurlStringList] = []

    init() throws(CurlCallError) {
        try CurlGlobal.ensureInitialized()
        guard let handle = aubade_curl_easy_init() else {
            throw CurlCallError(function: "curl_easy_init", message: "libcurl could not make a handle")
        }
        self.handle = handle
        let size = Int(aubade_CURL_ERROR_SIZE)
        errorBuffer = .allocate(capacity: size)
        errorBuffer.initialize(repeating: 0, count: size)
        let code = aubade_curl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer)
        guard code == CURLE_OK else {
            aubade_curl_easy_cleanup(handle)
            errorBuffer.deallocate()
            throw CurlCallError(function: "curl_easy_setopt(ERRORBUFFER)", code: code)
        }
    }

    deinit {
        aubade_curl_easy_cleanup(handle)
        errorBuffer.deallocate()
        // keptLists are freed after this body, once libcurl can no longer read them.
    }

    /// What libcurl wrote about the last failure (empty when it wrote nothing).
    var errorText: String { String(cString: errorBuffer) }

    /// An error for `code` returned by `function`, worded from the error buffer when it has words.
    func error(_ function: String, _ code: CURLcode) -> CurlCallError {
        CurlCallError(function: function, code: code, detail: errorText)
    }

    // MARK: Options

    func set(_ option: CURLoption, _ value: Int) throws(CurlCallError) {
        try check(option, aubade_curl_easy_setopt_long(handle, option, value))
    }

    func set(_ option: CURLoption, _ value: Bool) throws(CurlCallError) {
        try set(option, value ? 1 : 0)
    }

    /// A string option. libcurl copies strings (all but POSTFIELDS, which CurlKit never sets).
    func set(_ option: CURLoption, string value: String) throws(CurlCallError) {
        // A NUL inside would silently cut the C string short: refuse instead.
        guard !value.utf8.contains(0) else {
            throw CurlCallError(function: "curl_easy_setopt(\(Self.name(of: option)))",
                                message: "the text contains a NUL byte")
        }
        let code = value.withCString { aubade_curl_easy_setopt_string(handle, option, $0) }
        try check(option, code)
    }

    /// A string option set to NULL (e.g. CAPATH: none).
    func clear(_ option: CURLoption) throws(CurlCallError) {
        try check(option, aubade_curl_easy_setopt_string(handle, option, nil))
    }

    func set(_ option: CURLoption, offset value: Int64) throws(CurlCallError) {
        try check(option, aubade_curl_easy_setopt_off_t(handle, option, curl_off_t(value)))
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(CurlCallError) {
        try check(option, aubade_curl_easy_setopt_pointer(handle, option, value))
    }

    func set(_ option: CURLoption, callback: aubade_curl_data_callback) throws(CurlCallError) {
        try check(option, aubade_curl_easy_setopt_data_callback(handle, option, callback))
    }

    func set(_ option: CURLoption, callback: curl_opensocket_callback) throws(CurlCallError) {
        try check(option, aubade_curl_easy_setopt_opensocket_callback(handle, option, callback))
    }

    /// A list option; the handle keeps `lines` alive for as long as it lives.
    func set(_ option: CURLoption, list lines: [String]) throws(CurlCallError) {
        let list = try CurlStringList(lines)
        try check(option, aubade_curl_easy_setopt_pointer(handle, option, list.head))
        keptLists.append(list)
    }

    private func check(_ option: CURLoption, _ code: CURLcode) throws(CurlCallError) {
        guard code == CURLE_OK else {
            throw error("curl_easy_setopt(\(Self.name(of: option)))", code)
        }
    }

    /// libcurl's own name of an option ("NOSIGNAL"), for error messages.
    static func name(of option: CURLoption) -> String {
        aubade_curl_easy_option_by_id(option)?.pointee.name.map { String(cString: $0) } ?? "option \(option.rawValue)"
    }

    // MARK: Information

    func info(long info: CURLINFO) throws(CurlCallError) -> Int {
        var value = 0
        try check(info, aubade_curl_easy_getinfo_long(handle, info, &value))
        return value
    }

    func info(offset info: CURLINFO) throws(CurlCallError) -> Int64 {
        var value: curl_off_t = 0
        try check(info, aubade_curl_easy_getinfo_off_t(handle, info, &value))
        return Int64(value)
    }

    func info(string info: CURLINFO) throws(CurlCallError) -> String? {
        var value: UnsafePointer<CChar>? = nil
        try check(info, aubade_curl_easy_getinfo_string(handle, info, &value))
        return value.map { String(cString: $0) }
    }

    func info(double info: CURLINFO) throws(CurlCallError) -> Double {
        var value = 0.0
        try check(info, aubade_curl_easy_getinfo_double(handle, info, &value))
        return value
    }

    private func check(_ info: CURLINFO, _ code: CURLcode) throws(CurlCallError) {
        guard code == CURLE_OK else { throw error("curl_easy_getinfo(\(info.rawValue))", code) }
    }

    // MARK: Pausing

    /// `aubade_curl_easy_pause(CURLPAUSE_CONT)`: hand over the held-back data and read on.
    /// Transfer thread only; may call the write callback before it returns.
    func resume() throws(CurlCallError) {
        let code = aubade_curl_easy_pause(handle, aubade_CURLPAUSE_CONT)
        guard code == CURLE_OK else { throw error("curl_easy_pause", code) }
    }
}

internal import CCurl

/// `curl_global_init`, once per process.
///
/// libcurl wants it called before any other function and not concurrently with itself; a Swift
/// global is initialised exactly once, under a lock, on first use. Never undone
/// (`curl_global_cleanup`): the transfer thread lives as long as the process.
enum CurlGlobal {
    /// `nil` when libcurl initialised; otherwise why not.
    static let initializationError: CurlCallError? = {
        let code = curl_global_init(aubade_CURL_GLOBAL_DEFAULT)
        return code == CURLE_OK ? nil : CurlCallError(function: "curl_global_init", code: code)
    }()

    /// Initialises libcurl on first use; throws on every call if that failed.
    static func ensureInitialized() throws(CurlCallError) {
        if let initializationError { throw initializationError }
    }
}

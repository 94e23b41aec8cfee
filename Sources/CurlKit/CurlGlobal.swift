internal import CCurl

/// `curl_global_init`, once per process.
///
/// libcurl wants it called before any other function and not concurrently with itself; a Swift
/// global is initialised exactly once, under a lock, on first use. Never undone
/// (`curl_global_cleanup`): the transfer thread lives as long as the process.
enum CurlGlobal {
    /// `nil` when libcurl initialised; otherwise why not.
    static let initializationError: CurlCallError? = {
        // Loaded here, at the first transfer: a daemon that plays only files never maps it.
        if case .failure(let error) = CurlLibrary.loaded { return error }
        let code = aubade_curl_global_init(aubade_CURL_GLOBAL_DEFAULT)
        return code == CURLE_OK ? nil : CurlCallError(function: "curl_global_init", code: code)
    }()

    /// Whether libcurl has been loaded into this process.
    public static var isLoaded: Bool { CurlLibrary.isLoaded }

    /// Initialises libcurl on first use; throws on every call if that failed.
    static func ensureInitialized() throws(CurlCallError) {
        if let initializationError { throw initializationError }
    }
}

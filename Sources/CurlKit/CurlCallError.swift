internal import CCurl

/// A libcurl call that did not return `CURLE_OK` / `CURLM_OK`: which function, its code, and
/// libcurl's words for it.
///
/// Internal: callers of CurlKit see `TransferFailure`, whose message names the function for
/// failures that are ours (a refused option) rather than the network's.
struct CurlCallError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The C function, with the option for `curl_easy_setopt` ("curl_easy_setopt(NOSIGNAL)").
    var function: String
    /// The `CURLcode` (or `CURLMcode` for `curl_multi_*`).
    var code: Int32
    /// The transfer's error buffer when it said something, else `curl_easy_strerror`.
    var message: String
    /// Whether `code` is a `CURLMcode`.
    var isMultiCode = false

    var description: String { "\(function): \(message) (\(isMultiCode ? "CURLMcode" : "CURLcode") \(code))" }

    init(function: String, code: CURLcode, detail: String? = nil) {
        self.function = function
        self.code = Int32(bitPattern: code.rawValue)
        if let detail, !detail.isEmpty {
            message = detail
        } else {
            // libcurl's words need libcurl loaded (a failed dlopen has none to give).
            message = aubade_curl_easy_strerror(code).map { String(cString: $0) } ?? "unknown error"
        }
    }

    init(function: String, multiCode: CURLMcode) {
        self.function = function
        code = multiCode.rawValue
        message = aubade_curl_multi_strerror(multiCode).map { String(cString: $0) } ?? "unknown error"
        isMultiCode = true
    }

    /// A failure that is not a libcurl return code (a NULL handle, an argument we refuse).
    init(function: String, message: String) {
        self.function = function
        code = -1
        self.message = message
    }

    /// The code as libcurl's enum, for mapping to a `TransferFailure.Kind`.
    var curlCode: CURLcode? { isMultiCode || code < 0 ? nil : CURLcode(rawValue: UInt32(code)) }
}

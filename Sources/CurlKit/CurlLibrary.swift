internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// libcurl, loaded into the process at the first transfer (`dlopen`), not linked: a daemon that
/// plays only local files never maps it or its TLS stack (about 5 MB resident). Each function
/// CurlKit calls is one of the `aubade_curl_…` functions below, which pass the address `dlsym`
/// gave to the shim's fixed-signature wrapper.
///
/// `loaded` is a Swift global: made once, under a lock, on first use — after which the
/// addresses never change, so every thread may call through them.
enum CurlLibrary {
    /// Addresses in a library that is never unloaded: safe to share between threads.
    struct Symbols: @unchecked Sendable {
        var globalInit, easyInit, easyCleanup, easySetopt, easyGetinfo, easyPause, easyStrerror, easyOptionByID: UnsafeMutableRawPointer
        var multiInit, multiCleanup, multiAddHandle, multiRemoveHandle, multiPerform, multiPoll, multiWakeup: UnsafeMutableRawPointer
        var multiInfoRead, multiStrerror, slistAppend, slistFreeAll: UnsafeMutableRawPointer
    }

    /// The library's functions, or why it could not be loaded ("dlopen libcurl.so.4: …").
    static let loaded: Result<Symbols, CurlCallError> = load()

    /// Whether libcurl is mapped into this process (the memory benchmark looks).
    static var isLoaded: Bool {
        // RTLD_NOLOAD: asks without loading it.
        guard let handle = dlopen("libcurl.so.4", RTLD_NOW | RTLD_NOLOAD) else { return false }
        dlclose(handle)
        return true
    }

    /// The symbols; only called once `CurlGlobal` succeeded (which needs them).
    static var symbols: Symbols {
        switch loaded {
        case .success(let symbols): return symbols
        case .failure(let error): fatalError("libcurl used after it failed to load: \(error)")
        }
    }

    private static func load() -> Result<Symbols, CurlCallError> {
        guard let library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL) else {
            let why = dlerror().map { String(cString: $0) } ?? "failed"
            return .failure(CurlCallError(function: "dlopen", code: CURLE_FAILED_INIT, detail: "dlopen libcurl.so.4: \(why)"))
        }
        var missing: String?
        func symbol(_ name: String) -> UnsafeMutableRawPointer {
            if let found = dlsym(library, name) { return found }
            missing = missing ?? name
            return UnsafeMutableRawPointer(bitPattern: 1)!
        }
        let symbols = Symbols(
            globalInit: symbol("curl_global_init"), easyInit: symbol("curl_easy_init"), easyCleanup: symbol("curl_easy_cleanup"),
            easySetopt: symbol("curl_easy_setopt"), easyGetinfo: symbol("curl_easy_getinfo"), easyPause: symbol("curl_easy_pause"),
            easyStrerror: symbol("curl_easy_strerror"), easyOptionByID: symbol("curl_easy_option_by_id"),
            multiInit: symbol("curl_multi_init"), multiCleanup: symbol("curl_multi_cleanup"),
            multiAddHandle: symbol("curl_multi_add_handle"), multiRemoveHandle: symbol("curl_multi_remove_handle"),
            multiPerform: symbol("curl_multi_perform"), multiPoll: symbol("curl_multi_poll"), multiWakeup: symbol("curl_multi_wakeup"),
            multiInfoRead: symbol("curl_multi_info_read"), multiStrerror: symbol("curl_multi_strerror"),
            slistAppend: symbol("curl_slist_append"), slistFreeAll: symbol("curl_slist_free_all"))
        if let missing {
            return .failure(CurlCallError(function: "dlsym", code: CURLE_FAILED_INIT, detail: "dlsym \(missing): not in libcurl.so.4"))
        }
        return .success(symbols)
    }
}

// The calls, by the names of the C functions (prefixed: curl.h still declares the originals).
func aubade_curl_global_init(_ flags: Int) -> CURLcode { aubade_curl_global_init_via(CurlLibrary.symbols.globalInit, flags) }
func aubade_curl_easy_init() -> UnsafeMutableRawPointer? { aubade_curl_easy_init_via(CurlLibrary.symbols.easyInit) }
func aubade_curl_easy_cleanup(_ easy: UnsafeMutableRawPointer?) { aubade_curl_easy_cleanup_via(CurlLibrary.symbols.easyCleanup, easy) }
func aubade_curl_easy_pause(_ easy: UnsafeMutableRawPointer?, _ mask: Int32) -> CURLcode {
    aubade_curl_easy_pause_via(CurlLibrary.symbols.easyPause, easy, mask)
}
func aubade_curl_easy_strerror(_ code: CURLcode) -> UnsafePointer<CChar>? {
    guard case .success(let symbols) = CurlLibrary.loaded else { return nil }
    return aubade_curl_easy_strerror_via(symbols.easyStrerror, code)
}
func aubade_curl_easy_option_by_id(_ option: CURLoption) -> UnsafePointer<curl_easyoption>? {
    aubade_curl_easy_option_by_id_via(CurlLibrary.symbols.easyOptionByID, option)
}
func aubade_curl_multi_init() -> UnsafeMutableRawPointer? { aubade_curl_multi_init_via(CurlLibrary.symbols.multiInit) }
func aubade_curl_multi_cleanup(_ multi: UnsafeMutableRawPointer?) -> CURLMcode {
    aubade_curl_multi_cleanup_via(CurlLibrary.symbols.multiCleanup, multi)
}
func aubade_curl_multi_add_handle(_ multi: UnsafeMutableRawPointer?, _ easy: UnsafeMutableRawPointer?) -> CURLMcode {
    aubade_curl_multi_add_handle_via(CurlLibrary.symbols.multiAddHandle, multi, easy)
}
func aubade_curl_multi_remove_handle(_ multi: UnsafeMutableRawPointer?, _ easy: UnsafeMutableRawPointer?) -> CURLMcode {
    aubade_curl_multi_remove_handle_via(CurlLibrary.symbols.multiRemoveHandle, multi, easy)
}
func aubade_curl_multi_perform(_ multi: UnsafeMutableRawPointer?, _ running: UnsafeMutablePointer<Int32>?) -> CURLMcode {
    aubade_curl_multi_perform_via(CurlLibrary.symbols.multiPerform, multi, running)
}
func aubade_curl_multi_poll(_ multi: UnsafeMutableRawPointer?, _ extra: UnsafeMutablePointer<curl_waitfd>?, _ count: UInt32,
                            _ timeout: Int32, _ ready: UnsafeMutablePointer<Int32>?) -> CURLMcode {
    aubade_curl_multi_poll_via(CurlLibrary.symbols.multiPoll, multi, extra, count, timeout, ready)
}
func aubade_curl_multi_wakeup(_ multi: UnsafeMutableRawPointer?) -> CURLMcode {
    aubade_curl_multi_wakeup_via(CurlLibrary.symbols.multiWakeup, multi)
}
func aubade_curl_multi_info_read(_ multi: UnsafeMutableRawPointer?, _ left: UnsafeMutablePointer<Int32>?) -> UnsafeMutablePointer<CURLMsg>? {
    aubade_curl_multi_info_read_via(CurlLibrary.symbols.multiInfoRead, multi, left)
}
func aubade_curl_multi_strerror(_ code: CURLMcode) -> UnsafePointer<CChar>? {
    guard case .success(let symbols) = CurlLibrary.loaded else { return nil }
    return aubade_curl_multi_strerror_via(symbols.multiStrerror, code)
}
func aubade_curl_slist_append(_ list: UnsafeMutablePointer<curl_slist>?, _ text: UnsafePointer<CChar>?) -> UnsafeMutablePointer<curl_slist>? {
    aubade_curl_slist_append_via(CurlLibrary.symbols.slistAppend, list, text)
}
func aubade_curl_slist_free_all(_ list: UnsafeMutablePointer<curl_slist>?) {
    aubade_curl_slist_free_all_via(CurlLibrary.symbols.slistFreeAll, list)
}
func aubade_curl_easy_setopt_long(_ easy: UnsafeMutableRawPointer?, _ option: CURLoption, _ value: Int) -> CURLcode {
    aubade_curl_easy_setopt_long_via(CurlLibrary.symbols.easySetopt, easy, option, value)
}
func aubade_curl_easy_setopt_pointer(_ easy: UnsafeMutableRawPointer?, _ option: CURLoption, _ value: UnsafeMutableRawPointer?) -> CURLcode {
    aubade_curl_easy_setopt_pointer_via(CurlLibrary.symbols.easySetopt, easy, option, value)
}
func aubade_curl_easy_setopt_string(_ easy: UnsafeMutableRawPointer?, _ option: CURLoption, _ value: UnsafePointer<CChar>?) -> CURLcode {
    aubade_curl_easy_setopt_string_via(CurlLibrary.symbols.easySetopt, easy, option, value)
}
func aubade_curl_easy_setopt_off_t(_ easy: UnsafeMutableRawPointer?, _ option: CURLoption, _ value: curl_off_t) -> CURLcode {
    aubade_curl_easy_setopt_off_t_via(CurlLibrary.symbols.easySetopt, easy, option, value)
}
func aubade_curl_easy_setopt_data_callback(_ easy: UnsafeMutableRawPointer?, _ option: CURLoption,
                                           _ value: aubade_curl_data_callback?) -> CURLcode {
    aubade_curl_easy_setopt_data_callback_via(CurlLibrary.symbols.easySetopt, easy, option, value)
}
func aubade_curl_easy_setopt_opensocket_callback(_ easy: UnsafeMutableRawPointer?, _ option: CURLoption,
                                                 _ value: curl_opensocket_callback?) -> CURLcode {
    aubade_curl_easy_setopt_opensocket_callback_via(CurlLibrary.symbols.easySetopt, easy, option, value)
}
func aubade_curl_easy_getinfo_long(_ easy: UnsafeMutableRawPointer?, _ info: CURLINFO, _ value: UnsafeMutablePointer<Int>?) -> CURLcode {
    aubade_curl_easy_getinfo_long_via(CurlLibrary.symbols.easyGetinfo, easy, info, value)
}
func aubade_curl_easy_getinfo_string(_ easy: UnsafeMutableRawPointer?, _ info: CURLINFO,
                                     _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?) -> CURLcode {
    aubade_curl_easy_getinfo_string_via(CurlLibrary.symbols.easyGetinfo, easy, info, value)
}
func aubade_curl_easy_getinfo_off_t(_ easy: UnsafeMutableRawPointer?, _ info: CURLINFO, _ value: UnsafeMutablePointer<curl_off_t>?) -> CURLcode {
    aubade_curl_easy_getinfo_off_t_via(CurlLibrary.symbols.easyGetinfo, easy, info, value)
}
func aubade_curl_easy_getinfo_double(_ easy: UnsafeMutableRawPointer?, _ info: CURLINFO, _ value: UnsafeMutablePointer<Double>?) -> CURLcode {
    aubade_curl_easy_getinfo_double_via(CurlLibrary.symbols.easyGetinfo, easy, info, value)
}

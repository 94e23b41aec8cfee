internal import CCurl

/// One `CURLM *` multi handle: the set of transfers one thread drives with `curl_multi_poll`.
///
/// Transfer thread only, except `wakeup()`, which libcurl allows from any thread.
/// `deinit` runs `curl_multi_cleanup`; every easy handle must have been removed before.
final class CurlMulti {
    let handle: UnsafeMutableRawPointer

    init() throws(CurlCallError) {
        try CurlGlobal.ensureInitialized()
        guard let handle = aubade_curl_multi_init() else {
            throw CurlCallError(function: "curl_multi_init", message: "libcurl could not make a multi handle")
        }
        self.handle = handle
    }

    deinit {
        let code = aubade_curl_multi_cleanup(handle)
        // Fails only for a bad handle or from inside a callback: our bug, not the network's.
        assert(code == CURLM_OK, "curl_multi_cleanup: \(code)")
    }

    func add(_ easy: CurlEasy) throws(CurlCallError) {
        try check("curl_multi_add_handle", aubade_curl_multi_add_handle(handle, easy.handle))
    }

    func remove(_ easy: CurlEasy) throws(CurlCallError) {
        try check("curl_multi_remove_handle", aubade_curl_multi_remove_handle(handle, easy.handle))
    }

    /// Moves every transfer on as far as it can without waiting; returns how many still run.
    @discardableResult
    func perform() throws(CurlCallError) -> Int {
        var running: Int32 = 0
        try check("curl_multi_perform", aubade_curl_multi_perform(handle, &running))
        return Int(running)
    }

    /// Waits for socket activity, libcurl's own next timeout, `wakeup()`, or `milliseconds`.
    func poll(milliseconds: Int32) throws(CurlCallError) {
        try check("curl_multi_poll", aubade_curl_multi_poll(handle, nil, 0, milliseconds, nil))
    }

    /// Ends a `poll` early. Any thread.
    func wakeup() throws(CurlCallError) {
        try check("curl_multi_wakeup", aubade_curl_multi_wakeup(handle))
    }

    /// The transfers that finished since the last call: each easy handle with its result.
    func finishedTransfers() -> [(easy: UnsafeMutableRawPointer, result: CURLcode)] {
        var finished: [(easy: UnsafeMutableRawPointer, result: CURLcode)] = []
        var queued: Int32 = 0
        while let message = aubade_curl_multi_info_read(handle, &queued) {
            // CURLMSG_DONE is the only message libcurl defines; skip any future ones.
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            finished.append((easy, message.pointee.data.result))
        }
        return finished
    }

    private func check(_ function: String, _ code: CURLMcode) throws(CurlCallError) {
        guard code == CURLM_OK else { throw CurlCallError(function: function, multiCode: code) }
    }
}

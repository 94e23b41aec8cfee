internal import CCurl

/// CURLOPT_WRITEFUNCTION: body bytes. Capture-free, so it is a C function pointer; `user` is
/// the `TransferCore`, kept alive by the loop while libcurl can call this.
let transferBodyCallback: aubade_curl_data_callback = { data, size, count, user in
    guard let user else { return 0 }
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow else { return 0 }
    let core = Unmanaged<TransferCore>.fromOpaque(user).takeUnretainedValue()
    return core.receiveBody(UnsafeRawBufferPointer(start: data, count: total))
}

/// CURLOPT_HEADERFUNCTION: one whole header line (status lines and the empty line too).
let transferHeaderCallback: aubade_curl_data_callback = { data, size, count, user in
    guard let user else { return 0 }
    let (total, overflow) = size.multipliedReportingOverflow(by: count)
    guard !overflow else { return 0 }
    let core = Unmanaged<TransferCore>.fromOpaque(user).takeUnretainedValue()
    return core.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: total))
}

extension TransferCore {
    /// Copies body bytes into the ring, or pauses the transfer when they do not all fit.
    /// Returns what libcurl expects: the count taken, CURL_WRITEFUNC_PAUSE, or 0 to abort.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        // Nobody listens any more: abort; the loop removes the handle anyway.
        if isCancelled.load(ordering: .sequentiallyConsistent) { return 0 }
        if !isHeadDelivered {
            // The body of a redirect being followed is not the body asked for.
            if isAwaitingRedirect { return bytes.count }
            deliverHead()
        }
        guard !bytes.isEmpty else { return 0 }
        let (accepted, wasEmpty) = buffer.withLock { state -> (Bool, Bool) in
            // All or nothing: a partial count would be an error to libcurl.
            guard bytes.count <= state.ring.freeSpace else {
                state.isPaused = true
                state.refusedCount = bytes.count
                state.resumeRequested = false
                return (false, false)
            }
            let wasEmpty = state.ring.count == 0
            _ = state.ring.write(bytes)
            state.bytesReceived += Int64(bytes.count)
            return (true, wasEmpty)
        }
        guard accepted else { return Int(aubade_CURL_WRITEFUNC_PAUSE) }
        lastActivity = .now
        if wasEmpty { deliver(.bytesAvailable) }
        return bytes.count
    }

    /// Collects the final response's header fields within the limits; delivers `.head` once
    /// the fields of a response that is not followed further are complete.
    func receiveHeaderLine(_ line: UnsafeRawBufferPointer) -> Int {
        if isCancelled.load(ordering: .sequentiallyConsistent) { return 0 }
        hasResponseStarted = true
        lastActivity = .now
        // Trailers after a chunked body: not part of the head, not kept.
        if isHeadDelivered { return line.count }
        switch parser.take(line) {
        case .statusLine:
            isAwaitingRedirect = false
            return line.count
        case .more:
            return line.count
        case .refused(let why):
            refusal = why
            return 0
        case .endOfFields:
            let status: Int
            do {
                guard let easy else { return 0 }
                status = try easy.info(long: CURLINFO_RESPONSE_CODE)
            } catch {
                refusal = TransferFailure(error).message
                return 0
            }
            // 1xx: an interim answer; the real one follows.
            if (100..<200).contains(status) { return line.count }
            if willFollow(status) {
                isAwaitingRedirect = true
                return line.count
            }
            deliverHead()
            return line.count
        }
    }

    /// Whether libcurl will follow this response (it follows any 3xx but 304 with a non-empty
    /// Location while FOLLOWLOCATION is on; past MAXREDIRS it fails the transfer instead).
    /// Wrong only costs the body of a 3xx, whose head then comes at the end.
    private func willFollow(_ status: Int) -> Bool {
        (300..<400).contains(status) && status != 304
            && parser.fields.contains { $0.name == "location" && !$0.value.isEmpty }
    }

    /// `.head`, once, from the fields collected and what libcurl reports.
    func deliverHead() {
        guard !isHeadDelivered else { return }
        isHeadDelivered = true
        // If getinfo fails (it does not for these on a live handle) the head says 0 / the request URL.
        let status = (try? easy?.info(long: CURLINFO_RESPONSE_CODE)) ?? 0
        let url = (try? easy?.info(string: CURLINFO_EFFECTIVE_URL)) ?? request.url
        let head = HTTPResponseHead(status: status, headers: parser.fields, effectiveURL: url,
                                    contentLength: Self.contentLength(of: parser))
        deliver(.head(head))
    }

    /// The announced body length of the final response: its one Content-Length, digits only,
    /// unless the body is chunked (then Content-Length does not count).
    static func contentLength(of parser: ResponseHeadParser) -> Int64? {
        guard !parser.has("transfer-encoding") else { return nil }
        let values = Set(parser.fields.filter { $0.name == "content-length" }.map(\.value))
        guard values.count == 1, let text = values.first, !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int64(text)
    }
}

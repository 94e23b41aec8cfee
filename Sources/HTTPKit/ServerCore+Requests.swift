import CMicroHTTPD
import Glibc

// The access handler's work, on libmicrohttpd's thread: the body gathered within its limit, the
// request handed over, the answer queued when it comes.
extension ServerCore {
    func advance(_ exchange: Exchange, on connection: OpaquePointer, method: UnsafePointer<CChar>?,
                 upload: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>?) -> MHD_Result {
        switch exchange.phase {
        case .headers:
            exchange.phase = .body
            // Refused before a byte of the body is read (and before `100 Continue`).
            if let length = MHD_lookup_connection_value(connection, .HEADER_KIND, "Content-Length"),
               let announced = UInt64(String(cString: length)), announced > UInt64(settings.maximumBodyBytes) {
                exchange.phase = .queued
                return queue(.response(.error("the request body is too large", status: 413)), on: connection)
            }
            return .YES
        case .body:
            if let uploadSize, uploadSize.pointee > 0 {
                // A chunked body gone past the limit: MHD cannot answer in the middle of a
                // body, so the connection is closed without reading more.
                guard let upload, exchange.body.count + uploadSize.pointee <= settings.maximumBodyBytes else { return .NO }
                exchange.body.append(contentsOf: UnsafeRawBufferPointer(start: upload, count: uploadSize.pointee))
                uploadSize.pointee = 0
                return .YES
            }
            exchange.phase = .handed
            hand(exchange, on: connection, method: method.map { String(cString: $0) } ?? "")
            return nextStep(of: exchange, on: connection)
        case .handed:
            return nextStep(of: exchange, on: connection)
        case .queued:
            return .YES
        }
    }

    private func hand(_ exchange: Exchange, on connection: OpaquePointer, method: String) {
        guard let target = RequestTarget(exchange.target) else {
            _ = exchange.deliver(.response(.error("the request's path or query is not valid", status: 400)))
            return
        }
        let request = HTTPRequest(method: method, path: target.path, query: target.query,
                                  headers: requestHeaders(of: connection), body: exchange.body,
                                  peer: exchange.peer.text, peerIsLoopback: exchange.peer.isLoopback)
        exchange.body = []
        handler(request, HTTPResponder(exchange: exchange, core: self))
    }

    private func nextStep(of exchange: Exchange, on connection: OpaquePointer) -> MHD_Result {
        switch exchange.nextStep() {
        case let .send(answer):
            exchange.phase = .queued
            return queue(answer, on: connection)
        case .wait:
            return .YES
        case .drop:
            return .NO
        }
    }

    private func queue(_ answer: Exchange.Answer, on connection: OpaquePointer) -> MHD_Result {
        switch answer {
        case let .response(response):
            guard let made = Self.make(response) else { return .NO }
            defer { MHD_destroy_response(made.response) }
            return MHD_queue_response(connection, UInt32(made.status), made.response)
        case let .stream(stream):
            let context = Unmanaged.passRetained(stream).toOpaque()
            guard let response = MHD_create_response_from_callback(AUBADE_MHD_SIZE_UNKNOWN, 16 * 1024, streamReader,
                                                                   context, streamReleased) else {
                Unmanaged<EventStream>.fromOpaque(context).release()
                return .NO
            }
            defer { MHD_destroy_response(response) }
            _ = MHD_add_response_header(response, "Content-Type", "text/event-stream")
            _ = MHD_add_response_header(response, "Cache-Control", "no-cache")
            stream.attach(to: connection)
            _ = aubade_mhd_never_time_out(connection)
            return MHD_queue_response(connection, 200, response)
        }
    }

    /// An MHD response for `response`; a file that cannot be opened becomes a 404.
    private static func make(_ response: HTTPResponse) -> (response: OpaquePointer, status: Int)? {
        let made: OpaquePointer?
        switch response.body {
        case let .bytes(bytes):
            made = bytes.withUnsafeBytes { raw in
                MHD_create_response_from_buffer(raw.count, UnsafeMutableRawPointer(mutating: raw.baseAddress),
                                                .RESPMEM_MUST_COPY)
            }
        case let .file(path):
            if let file = openFile(path) {
                // MHD closes the descriptor when the response is destroyed, sent or not.
                made = MHD_create_response_from_fd(file.size, file.descriptor)
                if made == nil { close(file.descriptor) }
            } else {
                return make(.error("not found", status: 404))
            }
        }
        guard let made else { return nil }
        for (name, value) in response.headers {
            _ = MHD_add_response_header(made, name, value)
        }
        return (made, min(max(response.status, 100), 599))
    }

    private static func openFile(_ path: String) -> (descriptor: Int32, size: Int)? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            return nil
        }
        return (descriptor, Int(status.st_size))
    }
}

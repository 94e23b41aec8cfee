import CMicroHTTPD
import Glibc

// libmicrohttpd's callbacks, all on its one polling thread. Each reaches the server through its
// context pointer (the `ServerCore`, unretained: the server outlives its daemon) and the request
// through the request context (the `Exchange`, retained from the URI logger to the completion).
// Nothing here throws or traps: a request that cannot be made sense of is answered 400, and a
// broken context closes the connection (.NO).

/// The request line is read: the exchange begins, with the raw target.
let uriLogger: aubade_mhd_uri_logger = { context, uri, connection in
    guard let context, let connection else { return nil }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    let target = uri.map { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) } ?? []
    let exchange = Exchange(connection: connection, target: target,
                            peer: PeerAddress(aubade_mhd_peer_address(connection)))
    core.begin(exchange)
    return Unmanaged.passRetained(exchange).toOpaque()
}

/// Called for the headers, for each piece of the body, at its end, and again after each resume.
let accessHandler: MHD_AccessHandlerCallback = { context, connection, _, method, _, upload, uploadSize, requestContext in
    guard let context, let connection, let raw = requestContext?.pointee else { return .NO }
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    let exchange = Unmanaged<Exchange>.fromOpaque(raw).takeUnretainedValue()
    return core.advance(exchange, on: connection, method: method, upload: upload, uploadSize: uploadSize)
}

/// The request is over, answered or not (its client gone, a timeout, the server stopping).
let requestCompleted: MHD_RequestCompletedCallback = { context, _, requestContext, _ in
    guard let context, let requestContext, let raw = requestContext.pointee else { return }
    requestContext.pointee = nil
    let core = Unmanaged<ServerCore>.fromOpaque(context).takeUnretainedValue()
    core.end(Unmanaged<Exchange>.fromOpaque(raw).takeRetainedValue())
}

/// An event stream's bytes for the socket.
let streamReader: MHD_ContentReaderCallback = { context, _, buffer, maximum in
    guard let context, let buffer else { return Int(AUBADE_MHD_END_WITH_ERROR) }
    let stream = Unmanaged<EventStream>.fromOpaque(context).takeUnretainedValue()
    return stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: maximum))
}

/// The stream's response is destroyed: its hold on the stream ends.
let streamReleased: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<EventStream>.fromOpaque(context).release()
}

/// The request's headers, in order.
func requestHeaders(of connection: OpaquePointer) -> HTTPHeaders {
    var headers = HTTPHeaders()
    withUnsafeMutablePointer(to: &headers) { pointer in
        _ = MHD_get_connection_values_n(connection, .HEADER_KIND, { context, _, key, keySize, value, valueSize in
            guard let context, let key else { return .YES }
            let name = String(decoding: UnsafeRawBufferPointer(start: key, count: keySize), as: UTF8.self)
            let text = value.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: valueSize), as: UTF8.self) } ?? ""
            context.assumingMemoryBound(to: HTTPHeaders.self).pointee.add(name, text)
            return .YES
        }, pointer)
    }
    return headers
}

import JSON

extension WebFrontEnd {
    public typealias Reply = @Sendable (WebResponse) -> Void

    /// One request from a page (any thread): checked (`RequestGuard`, the rate limit), then
    /// routed on the front-end's queue. `openStream` turns the answer into an event stream (for
    /// `/api/events`).
    public func serve(_ request: WebRequest, reply: @escaping Reply,
                      openStream: @escaping @Sendable () -> (any WebEventSink)?) {
        queue.async { [self] in
            if let refusal = requestGuard.check(request) { return reply(refusal.response) }
            if request.method == "POST", !limiter.admit(request.peer, now: clock()) {
                return reply(WebReply.error(429, "too many changes at once: slow down"))
            }
            route(request, reply: reply, openStream: openStream)
        }
    }

    private func route(_ request: WebRequest, reply: @escaping Reply, openStream: @escaping @Sendable () -> (any WebEventSink)?) {
        switch (request.method, request.path) {
        case ("GET", "/"), ("HEAD", "/"):
            // The token on the URL `aubade web` printed: kept as a cookie, and out of the address bar.
            if !requestGuard.loopbackOnly, let token = request.query["token"], RequestGuard.same(token, requestGuard.token) {
                return reply(WebResponse(status: 303, headers: [
                    ("Location", "/"),
                    ("Set-Cookie", "\(RequestGuard.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict; Max-Age=31536000"),
                    ("Cache-Control", "no-store"),
                ]))
            }
            reply(files.response(for: request) ?? WebReply.error(404, "the page's files are not installed"))
        case ("GET", "/api/state"):
            reply(WebReply.json(stateDocument()))
        case ("GET", "/api/events"):
            guard let stream = openStream() else { return }
            streams[ObjectIdentifier(stream)] = stream
            stream.send(event: "snapshot", data: JSONText.write(stateDocument()))
            if roomsControl != nil { stream.send(event: "rooms", data: JSONText.write(roomsDocument())) }
        case ("GET", "/api/albums"), ("GET", "/api/artists"), ("GET", "/api/album"), ("GET", "/api/folder"),
             ("GET", "/api/search"):
            reply(libraryPage(request))
        case ("GET", "/api/queue"):
            reply(queuePage(request))
        case ("GET", "/api/playlists"):
            listPlaylists(reply: reply)
        case ("GET", "/api/rooms"):
            reply(WebReply.json(roomsDocument()))
        case ("GET", "/cover"):
            cover(request, reply: reply)
        case ("POST", let path) where path.hasPrefix("/api/"):
            let body: JSONValue
            do throws(JSONText.ParseError) {
                body = try JSONText.parse(request.body)
            } catch {
                return reply(WebReply.error(400, "the body is not JSON: \(error)"))
            }
            guard body.isObject else { return reply(WebReply.error(400, "the body is a JSON object")) }
            switch path {
            case "/api/player": playerRequest(body, reply: reply)
            case "/api/queue": queueRequest(body, reply: reply)
            case "/api/playlists": playlistRequest(body, reply: reply)
            case "/api/stations": stationRequest(body, reply: reply)
            case "/api/rooms": roomsRequest(body, reply: reply)
            default: reply(WebReply.notFound)
            }
        default:
            if request.method == "GET" || request.method == "HEAD", let file = files.response(for: request) {
                return reply(file)
            }
            reply(request.path.hasPrefix("/api/") && request.method != "GET" ? WebReply.methodNotAllowed : WebReply.notFound)
        }
    }

    /// A stream whose page went away: forgotten (the HTTP side calls this).
    public func streamClosed(_ stream: any WebEventSink) {
        queue.async { [self] in streams[ObjectIdentifier(stream)] = nil }
    }
}

/// `GET /cover?uri=U&size=S`: U is looked up in the library (no other path reaches the file
/// system), S is one of the fixed sizes.
extension WebFrontEnd {
    func cover(_ request: WebRequest, reply: @escaping Reply) {
        guard let size = Int(request.query["size"] ?? "300"), CoverStore.sizes.contains(size) else {
            return reply(WebReply.error(400, "size is 96, 300 or 600"))
        }
        guard let uri = request.query["uri"], let snapshot = library?.snapshot, let song = snapshot.song(uri: uri) else {
            return reply(WebReply.error(404, "no such song in the library"))
        }
        covers.cover(of: song.path, size: size, ifNoneMatch: request.header("if-none-match"), reply: reply)
    }
}

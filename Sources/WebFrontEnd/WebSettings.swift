/// What the web front-end is told at start.
public struct WebSettings: Sendable {
    /// Only this machine can reach the page: no token asked.
    public var loopbackOnly: Bool
    public var token: String
    public var port: Int
    /// "pulse" or "snapcast": what the page says plays the sound (rooms with Snapcast).
    public var output: String
    /// Where the page's files may be, the first with index.html wins.
    public var pageFolders: [String]

    public init(loopbackOnly: Bool, token: String, port: Int, output: String, pageFolders: [String]) {
        self.loopbackOnly = loopbackOnly
        self.token = token
        self.port = port
        self.output = output
        self.pageFolders = pageFolders
    }
}

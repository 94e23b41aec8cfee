/// Where a track's audio comes from: a local file, or a stream over HTTP(S).
public enum MediaLocation: Sendable, Hashable {
    case file(FilePath)
    case stream(StreamURL)

    public var filePath: FilePath? {
        if case .file(let path) = self { return path }
        return nil
    }

    public var streamURL: StreamURL? {
        if case .stream(let url) = self { return url }
        return nil
    }

    /// For logs and messages: the path, or the URL without credentials.
    public var displayString: String {
        switch self {
        case .file(let path): return path.displayString
        case .stream(let url): return url.redacted
        }
    }
}

/// Something the user asked to play that could not be queued, and why. `path` is text, for
/// messages (a file name that is not UTF-8 is shown as `FilePath.displayString` shows it).
public struct LoadProblem: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file, directory, playlist or URI concerned.
    public var path: String
    /// e.g. "file not found", "not an MP3 file: no audio frames", "no playable music files in directory".
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String { "\(path): \(reason)" }
}

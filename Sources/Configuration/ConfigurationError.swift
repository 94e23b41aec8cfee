/// What is wrong with the configuration file or the command line, said so that the person
/// can fix it: the file and line (`aubade.conf:7: unknown key "volme"`), or the flag.
///
/// The daemon refuses to start on any of these rather than guessing.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A line that is not `key = value`, a comment or blank.
        case syntax
        case unknownKey
        case badValue
        /// A key that takes one value, given twice.
        case duplicateKey
        /// The file exists but cannot be read (or an explicitly named one does not exist).
        case unreadableFile
        /// A command-line flag that does not exist or lacks its value.
        case usage
    }

    public var kind: Kind
    /// The configuration file; nil for a command-line flag.
    public var file: String?
    /// 1-based line in `file`.
    public var line: Int?
    /// The key (`volume`) or the flag (`--volume`) concerned.
    public var key: String?
    /// What is wrong, after the location: `unknown key "volme" (did you mean "volume"?)`.
    public var message: String

    public init(kind: Kind, file: String?, line: Int?, key: String?, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    /// True for a bad command line (exit status 64), false for a bad file (exit status 1).
    public var isUsageError: Bool { kind == .usage }

    /// `FILE:LINE: message`, `FILE: message` or, for a flag, the message alone.
    public var description: String {
        switch (file, line) {
        case let (file?, line?): "\(file):\(line): \(message)"
        case let (file?, nil): "\(file): \(message)"
        default: message
        }
    }
}

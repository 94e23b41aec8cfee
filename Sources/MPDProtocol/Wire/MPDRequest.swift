/// A command line read into its name and arguments, before the command table looks at it.
public struct MPDRequest: Sendable, Hashable {
    public var name: String
    public var arguments: [String]

    public init(name: String, arguments: [String] = []) {
        self.name = name
        self.arguments = arguments
    }

    /// mpd's `COMMAND_ARGV_MAX` less the name: 2 + 2 × 31 tag types, less one. A 64th argument
    /// is "Too many arguments" before the command is even looked up.
    public static let maximumArguments = 63

    /// mpd's `command_process` up to the table lookup: the name (a bad character in it ends the
    /// connection after the answer), then the arguments, at most `maximumArguments`.
    init(tokenizing bytes: [UInt8]) throws(MPDError) {
        var tokenizer = Tokenizer(bytes)
        let name: String?
        do {
            name = try tokenizer.nextWord()
        } catch {
            throw MPDError(error.code, error.message, closesConnection: true)
        }
        guard let name else { throw MPDError(.unknown, "No command given", closesConnection: true) }
        var arguments = [String]()
        while true {
            // mpd checks the count before reading the next parameter: 64 parameters fail even
            // when nothing follows them.
            if arguments.count > Self.maximumArguments { throw MPDError(.argument, "Too many arguments") }
            guard let argument = try tokenizer.nextParameter() else { break }
            arguments.append(argument)
        }
        self.init(name: name, arguments: arguments)
    }
}

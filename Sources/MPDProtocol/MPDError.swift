/// A failed request, as the client will read it: `ACK [code@index] {command} message`.
///
/// Thrown by the tokenizer, the command table and every argument parser here, with mpd's own
/// message; the server throws its own (`MPDError.noSuchSong`…) while running a command.
public struct MPDError: Error, Sendable, Hashable {
    public var code: AckCode
    public var message: String
    /// The command between the braces. Empty when the line failed before its command was known
    /// (tokenizer errors, an unknown command), as mpd leaves it; errors made while running a
    /// command get its name with `withCommand(_:)`.
    public var command: String
    /// mpd answers, then closes the connection: the line was not the MPD protocol at all (a bad
    /// character in the command name, "Invalid word character").
    public var closesConnection: Bool

    public init(_ code: AckCode, _ message: String, command: String = "", closesConnection: Bool = false) {
        self.code = code
        self.message = message
        self.command = command
        self.closesConnection = closesConnection
    }

    /// The same error, reported for `command` (the server names the command it was running).
    public func withCommand(_ command: String) -> MPDError {
        var named = self
        named.command = command
        return named
    }

    /// The answer line without its newline. Hostile parts (a client's argument echoed in the
    /// message) are cleaned when written by `ResponseWriter.ack`, not here.
    public func ackLine(listIndex: Int) -> String {
        "ACK [\(code.rawValue)@\(listIndex)] {\(command)} \(message)"
    }
}

extension MPDError {
    /// An argument error as mpd's `MakeArgError` makes it: `"%s: %s"` into a 256-byte buffer, so
    /// the whole message is cut at 255 bytes (a partial UTF-8 character at the cut is dropped).
    static func argument(_ what: String, _ value: String) -> MPDError {
        MPDError(.argument, String(cString: "\(what): \(value)", truncatedTo: 255))
    }
}

extension String {
    /// `text` cut as C's `snprintf` into a buffer of `limit + 1` bytes cuts it: at most `limit`
    /// bytes, never half a character.
    init(cString text: String, truncatedTo limit: Int) {
        guard text.utf8.count > limit else {
            self = text
            return
        }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: limit)
        // Step back to a character boundary: a cut inside a UTF-8 sequence would make the message
        // invalid UTF-8 (mpd sends those bytes; a Swift string cannot hold them).
        while end > text.utf8.startIndex, text.utf8[end] & 0xC0 == 0x80 { text.utf8.formIndex(before: &end) }
        self = String(decoding: text.utf8[..<end], as: UTF8.self)
    }
}

/// Errors the server raises while running commands, with mpd's exact codes and messages (mpd's
/// `PlaylistError`, `DatabaseError` and command handlers).
extension MPDError {
    public static let noSuchSong = MPDError(.noExist, "No such song")
    public static let noSuchPlaylist = MPDError(.noExist, "No such playlist")
    public static let noSuchDirectory = MPDError(.noExist, "No such directory")
    public static let noSuchOutput = MPDError(.noExist, "No such audio output")
    /// A position or range outside the queue (`PlaylistError::BadRange`).
    public static let badSongIndex = MPDError(.argument, "Bad song index")
    public static let notPlaying = MPDError(.playerSync, "Not playing")
    public static let noCurrentSong = MPDError(.playerSync, "No current song")
    public static let noMixer = MPDError(.system, "No mixer")
    public static let incorrectPassword = MPDError(.password, "incorrect password")
}

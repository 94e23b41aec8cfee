/// The number in an `ACK [code@index]` line: what kind of failure (mpd's `src/protocol/Ack.hxx`).
///
/// Clients switch on these (python-mpd2 raises per code, ncmpcpp retries a password on 3), so the
/// values are mpd's and never change.
public enum AckCode: Int, Sendable, Hashable, CaseIterable {
    /// `ACK_ERROR_NOT_LIST`: unused by mpd 0.23 itself, kept for completeness.
    case notList = 1
    /// A malformed or out-of-range argument, a bad filter.
    case argument = 2
    /// `password` with a password nobody configured.
    case password = 3
    /// The client's permissions do not include the command's.
    case permission = 4
    /// An unknown command, or a line the tokenizer cannot read.
    case unknown = 5
    /// No such song, playlist, directory or output.
    case noExist = 50
    /// The queue or a stored playlist is full.
    case playlistMax = 51
    /// The system failed (I/O, no mixer).
    case system = 52
    /// A playlist file could not be loaded.
    case playlistLoad = 53
    /// An update is already running.
    case updateAlready = 54
    /// The command needs a player state that is not there ("Not playing", "No current song").
    case playerSync = 55
    /// The thing to create exists already.
    case exist = 56
}

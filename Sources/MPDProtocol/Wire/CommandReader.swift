/// A client's lines in, what to do with each out: mpd's `Client::ProcessLine` without running
/// anything — the command list being gathered (`command_list_begin` … `command_list_end`), its
/// size cap, `noidle`, and the lines that end the connection.
///
/// One per connection. The server feeds it every line (without its `\n`) and runs the batches it
/// gets back, one command at a time, each parsed when its turn comes (an earlier command in a
/// list changes the queue the later ones see).
public struct CommandReader: Sendable {
    /// mpd's `max_command_list_size` default: 2 MiB for all the lines of one list, each counted
    /// with one byte for its end.
    public static let defaultCommandListLimit = 2 * 1024 * 1024

    /// The longest line mpd reads, its `\n` counted: its input buffer. Measured on mpd 0.23.12:
    /// a line of 8192 bytes is answered, one of 8193 closes the connection without an answer.
    /// Framing lines is the server's; `read` itself takes lines of any length, in one pass.
    public static let maximumLineLength = 8192

    public let commandListLimit: Int
    private var list: CommandListBuilder?

    public init(commandListLimit: Int = defaultCommandListLimit) {
        self.commandListLimit = commandListLimit
    }

    /// A command list is being gathered.
    public var isGatheringList: Bool { list != nil }

    /// What mpd does with this line. `idling`: the client's last command was a successful
    /// `idle` that has not been answered yet.
    ///
    /// In mpd's order: a line that does not start with a-z closes the connection (even inside a
    /// list); `noidle` is handled before anything else (inside a list too, where it is not
    /// added); while idling any other line closes; inside a list every line but
    /// `command_list_end` is kept (a nested `command_list_begin` included: it fails as an
    /// unknown command when the list runs); outside, `command_list_end` is an unknown command.
    public mutating func read(_ line: some Collection<UInt8>, idling: Bool = false) -> LineOutcome {
        let line = RequestLine(line)
        guard line.startsLikeACommand else {
            list = nil
            return .close(.notTheProtocol)
        }
        if line.isKeyword("noidle") { return .noidle }
        if idling {
            list = nil
            return .close(.commandWhileIdle)
        }
        if var builder = list {
            if line.isKeyword("command_list_end") {
                list = nil
                return .run(builder.batch)
            }
            list = nil
            guard builder.add(line, limit: commandListLimit) else { return .close(.commandListTooLarge) }
            list = builder
            return .gathering
        }
        if line.isKeyword("command_list_begin") {
            list = CommandListBuilder(sendsListOK: false)
            return .gathering
        }
        if line.isKeyword("command_list_ok_begin") {
            list = CommandListBuilder(sendsListOK: true)
            return .gathering
        }
        return .run(CommandBatch(single: line))
    }
}

/// What the server does after one line.
public enum LineOutcome: Sendable, Hashable {
    /// Run these commands now, in order; then `OK` if all succeeded.
    case run(CommandBatch)
    /// `noidle`: if the client is idling, end the idle with a bare `OK`; if it is not, answer
    /// nothing at all — it already has its idle answer (mpd).
    case noidle
    /// Nothing to answer yet: a command list began or grew.
    case gathering
    /// Close the connection without answering.
    case close(CloseReason)
}

/// Why a line ends the connection.
public enum CloseReason: Sendable, Hashable {
    /// The line does not start with a lower-case letter: not an MPD client (an empty line, an
    /// HTTP request routed to the wrong port).
    case notTheProtocol
    /// A line other than `noidle` while idling.
    case commandWhileIdle
    /// The command list grew past `commandListLimit`.
    case commandListTooLarge
}

/// A command list being gathered: its lines kept end to end in one buffer, so that a list of a
/// million short lines costs its bytes and one offset each, not a million arrays.
private struct CommandListBuilder: Sendable {
    let sendsListOK: Bool
    private var storage = [UInt8]()
    private var ends = [Int]()
    private var size = 0

    init(sendsListOK: Bool) {
        self.sendsListOK = sendsListOK
    }

    /// False when the list would pass `limit` (mpd counts each line's bytes plus one).
    mutating func add(_ line: RequestLine, limit: Int) -> Bool {
        size += line.bytes.count + 1
        guard size <= limit else { return false }
        storage.append(contentsOf: line.bytes)
        ends.append(storage.count)
        return true
    }

    var batch: CommandBatch {
        CommandBatch(storage: storage, ends: ends, isList: true, sendsListOK: sendsListOK)
    }
}

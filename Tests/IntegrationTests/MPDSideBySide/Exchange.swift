import Foundation
@testable import TestSupport

/// One exchange as compared: the command's name and both answers as lines (binary chunks as a
/// line naming their size and a hash of their bytes; the last line `OK`, the `ACK …` line or
/// `<closed>`). Known differences and masks rewrite the lines; what is left must be equal.
struct Exchange {
    /// The command's name (first word; `command_list_begin` for a batch).
    let command: String
    /// The names of every command in it (one, or a command list's).
    let commands: Set<String>
    /// The lines sent (as the corpus wrote them, placeholders and all).
    let sent: [String]
    var mpd: [String]
    var aubade: [String]

    static func lines(of answer: MPDAnswer) -> [String] {
        var lines = answer.items.map { item -> String in
            switch item {
            case .line(let bytes): return MPDAnswer.text(bytes)
            case .binary(let bytes):
                return "<binary: \(bytes.count) bytes, fnv1a \(String(FixtureCache.fnv1a(Data(bytes)), radix: 16))>"
            }
        }
        switch answer.end {
        case .ok: lines.append("OK")
        case .ack(let line): lines.append(line)
        case .closed: lines.append("<closed>")
        }
        return lines
    }
}

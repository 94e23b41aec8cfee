import Glibc
import MPRIS
import PlayerCore

/// One line per event on stderr, with a level.
///
/// Under systemd (`JOURNAL_STREAM` set) each line starts with the syslog priority `<N>`, so the
/// journal shows levels; elsewhere the level is spelled out.
final class Log: @unchecked Sendable {
    // Set once at start-up, before any other thread runs; read-only afterwards.
    nonisolated(unsafe) static var threshold = LogLevel.info
    private static let toJournal = getenv("JOURNAL_STREAM") != nil

    static func write(_ level: LogLevel, _ message: String) {
        guard level >= threshold else { return }
        // Parts of messages come from outside (URIs, file names, tags): a newline in them would
        // forge a second journal record, an escape sequence would reach a terminal.
        let message = EchoText.escapingControls(message)
        let line = toJournal ? "<\(priority(of: level))>\(message)\n" : "aubade: \(level.rawValue): \(message)\n"
        writeToStandardError(line)
    }

    static func debug(_ message: String) { write(.debug, message) }
    static func info(_ message: String) { write(.info, message) }
    static func notice(_ message: String) { write(.notice, message) }
    static func warning(_ message: String) { write(.warning, message) }
    static func error(_ message: String) { write(.error, message) }

    private static func priority(of level: LogLevel) -> Int {
        switch level {
        case .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        }
    }
}

/// One write(2) per line, so lines from different threads never interleave.
func writeToStandardError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(STDERR_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { return }
            offset += written
        }
    }
}

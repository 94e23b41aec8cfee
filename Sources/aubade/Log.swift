import Glibc
import MPRIS
import PlayerCore
import Synchronization

/// One line per event on stderr, with a level.
///
/// Under systemd (`JOURNAL_STREAM` set) each line starts with the syslog priority `<N>`, so the
/// journal shows levels; elsewhere the level is spelled out.
final class Log: Sendable {
    /// The least important level written. SIGHUP changes it on the core queue while other
    /// threads (the persistence queue, PulseAudio's mainloop, the loading queue) log: an
    /// atomic, so that is no data race.
    static var threshold: LogLevel {
        get { LogLevel.allCases[thresholdIndex.load(ordering: .relaxed)] }
        set { thresholdIndex.store(LogLevel.allCases.firstIndex(of: newValue) ?? 0, ordering: .relaxed) }
    }

    /// `threshold` as its index in `LogLevel.allCases` (always a valid one: only the setter
    /// stores).
    private static let thresholdIndex = Atomic<Int>(LogLevel.allCases.firstIndex(of: .info) ?? 0)
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

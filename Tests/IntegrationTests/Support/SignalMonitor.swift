import Foundation

/// One message as `dbus-monitor` prints it: a header line, then the arguments.
struct MonitoredMessage: CustomStringConvertible {
    var header: String
    var arguments: [DBusValue]

    /// "signal", "method call", "method return", "error".
    var kind: String {
        header.components(separatedBy: " time=").first ?? header
    }
    var member: String? { field("member") }
    var interface: String? { field("interface") }
    var path: String? { field("path") }
    var sender: String? { field("sender") }
    /// When dbus-monitor saw it (seconds since 1970, microsecond resolution).
    var time: Double? { field("time").flatMap(Double.init) }

    var isPropertiesChanged: Bool {
        kind == "signal" && interface == Bus.propertiesInterface && member == "PropertiesChanged"
    }

    /// For PropertiesChanged: the interface whose properties changed.
    var changedInterface: String? { isPropertiesChanged ? arguments.first?.string : nil }
    /// For PropertiesChanged: the changed properties and their new values.
    var changedProperties: [String: DBusValue] {
        guard isPropertiesChanged, arguments.count >= 2 else { return [:] }
        return arguments[1].dictionary ?? [:]
    }
    /// For PropertiesChanged: the properties announced as invalidated (no value).
    var invalidatedProperties: [String] {
        guard isPropertiesChanged, arguments.count >= 3 else { return [] }
        return arguments[2].strings ?? []
    }

    /// "path=/org/mpris/MediaPlayer2;" → "/org/mpris/MediaPlayer2"
    private func field(_ name: String) -> String? {
        for word in header.split(separator: " ") where word.hasPrefix("\(name)=") {
            var value = word.dropFirst(name.count + 1)
            if value.hasSuffix(";") { value = value.dropLast() }
            return String(value)
        }
        return nil
    }

    var description: String { "\(header) \(arguments)" }
}

/// `dbus-monitor --session RULE…` running in the background, its output parsed into messages.
///
/// Ready when `start` returns: it emits a sentinel signal until the monitor prints it, so no
/// signal sent afterwards can be missed.
final class SignalMonitor {
    private let process: Subprocess
    private static let sentinelPath = "/org/aubade/IntegrationTests/Sentinel"

    /// Watches the signals sent by `sender` (a unique name; the bus matches well-known names only
    /// for ordinary match rules, not reliably for monitors).
    convenience init(sender: String) throws {
        try self.init(rules: ["type='signal',sender='\(sender)'"])
    }

    /// Watches the signals matching `rules` (dbus-monitor match rules), from whoever sends
    /// them: for signals sent before the sender's unique name is known (a daemon starting up).
    init(rules matchRules: [String]) throws {
        let rules = matchRules + ["type='signal',path='\(SignalMonitor.sentinelPath)'"]
        process = try Subprocess("dbus-monitor", ["--session"] + rules)
        let deadline = Date(timeIntervalSinceNow: 10)
        while Date() < deadline {
            _ = try Shell.run("dbus-send", ["--session", "--type=signal", SignalMonitor.sentinelPath,
                                            "org.aubade.IntegrationTests.Ready"])
            if process.stdout.waitForLine(containing: "member=Ready", timeout: 0.2) != nil { return }
            if !process.isRunning { break }
        }
        process.stop()
        throw BusError("dbus-monitor did not start: \(process.stderr.text)")
    }

    /// Every complete message so far (the sentinels left out).
    var messages: [MonitoredMessage] {
        SignalMonitor.parse(process.stdout.lines).filter { $0.path != SignalMonitor.sentinelPath }
    }

    /// A position in the stream of messages: later waits look only at what comes after it.
    var mark: Int { messages.count }

    /// Waits for a message after `mark` that satisfies `predicate`.
    func waitForMessage(after mark: Int = 0, timeout: TimeInterval = 5,
                        where predicate: (MonitoredMessage) -> Bool) -> MonitoredMessage? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var seenLines = -1
        while true {
            let all = messages
            if all.count > mark, let index = all[mark...].firstIndex(where: predicate) {
                guard index == all.count - 1 else { return all[index] }
                // The last message may still be missing body lines (dbus-monitor writes the
                // header first): give the rest of it a moment to arrive, then read it again.
                _ = process.stdout.waitForLine(from: process.stdout.lines.count, timeout: 0.05) { _ in true }
                let again = messages
                if again.count > index, predicate(again[index]) { return again[index] }
                continue
            }
            if Date() >= deadline || !process.isRunning { return nil }
            // Sleep until more output arrives (or 50 ms, to catch a message completed by a chunk).
            let lineCount = process.stdout.lines.count
            if lineCount == seenLines {
                _ = process.stdout.waitForLine(from: lineCount, timeout: 0.05) { _ in true }
            }
            seenLines = lineCount
        }
    }

    /// Waits for PropertiesChanged on the Player interface carrying `property`; returns its value.
    func waitForPlayerChange(_ property: String, after mark: Int = 0,
                             timeout: TimeInterval = 5) -> DBusValue? {
        waitForMessage(after: mark, timeout: timeout) {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties[property] != nil
        }?.changedProperties[property]
    }

    func stop() {
        process.stop(grace: 1)
    }

    deinit {
        process.stop(grace: 1)
    }

    /// Splits dbus-monitor's output into messages: a header line starts at column 0, arguments
    /// are indented. The last message is dropped while its arguments are incomplete.
    static func parse(_ lines: [String]) -> [MonitoredMessage] {
        var groups: [(header: String, body: [String])] = []
        for line in lines {
            if let first = line.first, !first.isWhitespace {
                groups.append((line, []))
            } else if !groups.isEmpty {
                groups[groups.count - 1].body.append(line)
            }
        }
        var result: [MonitoredMessage] = []
        for (index, group) in groups.enumerated() {
            guard group.header.hasPrefix("signal") || group.header.hasPrefix("method")
                || group.header.hasPrefix("error") else { continue }
            do {
                let arguments = try DBusValueParser.parseAll(group.body.joined(separator: "\n"))
                result.append(MonitoredMessage(header: group.header, arguments: arguments))
            } catch {
                // Only the last message can be incomplete (still arriving); others are kept raw.
                if index != groups.count - 1 {
                    result.append(MonitoredMessage(header: group.header, arguments: []))
                }
            }
        }
        return result
    }
}

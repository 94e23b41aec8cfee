import DBusKit
import Dispatch
import Glibc
import MPRIS

/// `aubade monitor`: one line per remote command, route change, interruption and change of
/// playback status, each with a timestamp, until interrupted.
enum Monitor {
    static func run() -> Int32 {
        let queue = DispatchQueue(label: "aubade.monitor")
        let started = queue.sync { () -> Bool in
            do throws(DBusError) {
                let connection = try SessionBus.connect(queue: queue)
                try connection.addMatch("type='signal',sender='\(MPRISNames.busName)',path='\(MPRISNames.objectPath)'")
                // The audio session's signals come from Aubade's own object.
                try connection.addMatch("type='signal',sender='\(MPRISNames.busName)',path='\(MPRISNames.aubadePlayerPath)'")
                // `aubade guard`'s decisions (aubade serve sends its own on AudioSession1).
                try connection.addMatch("type='signal',sender='\(GuardObject.busName)',interface='\(GuardObject.interface)'")
                connection.onSignal = { message in
                    if let line = describe(message) { printLine(line) }
                }
                connection.onDisconnect = { exit(1) }
                monitorConnection = connection
                return true
            } catch {
                CommandLineInterface.printError("aubade monitor: \(error.message)")
                return false
            }
        }
        guard started else { return 1 }
        printLine("watching \(MPRISNames.busName) and \(GuardObject.busName) (Ctrl-C to stop)")
        dispatchMain()
    }

    // Kept alive for the life of the process; touched only on the monitor queue.
    nonisolated(unsafe) private static var monitorConnection: Connection?

    static func describe(_ message: Message) -> String? {
        guard let member = message.member, let arguments = try? message.arguments() else { return nil }
        switch (message.interface, member) {
        case (MPRISNames.audioSessionInterface?, "CommandReceived"):
            let command = arguments.first?.asString ?? "?"
            let sender = arguments.count > 1 ? arguments[1].asString ?? "" : ""
            return "command       \(command)\(sender.isEmpty ? "" : "  (from \(sender))")"
        case (MPRISNames.audioSessionInterface?, "RouteChanged"):
            guard arguments.count == 3 else { return nil }
            let previous = arguments[1].asVardict.map(RouteText.describe) ?? "none"
            let current = arguments[2].asVardict.map(RouteText.describe) ?? "none"
            return "route change  \(arguments[0].asString ?? "?"): \(previous) → \(current)"
        case (MPRISNames.audioSessionInterface?, "CategoryDecision"):
            return "category      \(arguments.first?.asString ?? "?")"
        case (MPRISNames.audioSessionInterface?, GuardWire.decisionSignal), (GuardObject.interface?, GuardWire.decisionSignal):
            return guardLine(arguments)
        case (MPRISNames.audioSessionInterface?, "InterruptionBegan"):
            return "interruption  began"
        case (MPRISNames.audioSessionInterface?, "InterruptionEnded"):
            return "interruption  ended (\(arguments.first?.asBool == true ? "resuming" : "staying paused"))"
        case (MPRISNames.playerInterface?, "Seeked"):
            return "seeked        \(Double(arguments.first?.asInt64 ?? 0) / 1_000_000) s"
        case (MPRISNames.propertiesInterface?, "PropertiesChanged"):
            guard let changed = arguments.dropFirst().first?.asVardict else { return nil }
            var parts: [String] = []
            if let status = changed["PlaybackStatus"]?.asString { parts.append("status \(status)") }
            if let reason = changed["PauseReason"]?.asString { parts.append("pause reason \(reason)") }
            if let title = changed["Metadata"]?.asVardict?["xesam:title"]?.asString { parts.append("now playing \"\(title)\"") }
            if let summary = changed["Stream"]?.asVardict?["summary"]?.asString { parts.append("stream \(summary)") }
            return parts.isEmpty ? nil : "player        " + parts.joined(separator: ", ")
        default:
            return nil
        }
    }

    /// "guard         pause org.mpris.MediaPlayer2.mpv (deviceLost; stream 42 mpv, pid 1234, on Headphones)"
    static func guardLine(_ arguments: [DBusValue]) -> String? {
        guard arguments.count == 4, let action = arguments[0].asString, let player = arguments[1].asString,
              let reason = arguments[2].asString else { return nil }
        var context = [reason]
        if let stream = arguments[3].asVardict, let index = stream["index"]?.asUInt32 {
            var text = "stream \(index)"
            if let binary = stream["binary"]?.asString, !binary.isEmpty { text += " \(binary)" }
            if let pid = stream["process_id"]?.asInt32, pid > 0 { text += ", pid \(pid)" }
            if let device = stream["device"]?.asString, !device.isEmpty { text += ", on \(device)" }
            context.append(text)
        }
        return "guard         \(action) \(player) (\(context.joined(separator: "; ")))"
    }

    /// "14:03:07.123  <text>", flushed at once so a pipe sees each line as it happens.
    static func printLine(_ text: String) {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = spec.tv_sec
        var parts = tm()
        localtime_r(&seconds, &parts)
        let stamp = String(format2(parts.tm_hour)) + ":" + format2(parts.tm_min) + ":" + format2(parts.tm_sec)
            + "." + format3(Int(spec.tv_nsec / 1_000_000))
        print("\(stamp)  \(text)")
        fflush(nil)
    }

    private static func format2(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static func format3(_ value: Int) -> String { String(repeating: "0", count: max(0, 3 - String(value).count)) + String(value) }
}

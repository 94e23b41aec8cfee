/// One thing the guard did (or chose not to do) to another player, and why: a line in the
/// log and in `aubade monitor`, and an `OtherPlayerDecision` signal.
public struct GuardDecision: Sendable, Equatable {
    public enum Action: String, Sendable {
        case pause, play
        /// Nothing sent: a finding (a player that ignored Pause).
        case none
    }

    public enum Reason: String, Sendable, CaseIterable {
        /// The private listening device its stream played to went away.
        case deviceLost
        /// That device came back within the reconnect window (resume-on-reconnect).
        case deviceBack
        case callBegan
        case callEnded
        case sleep
        /// It was sent Pause and still plays.
        case ignoredPause
    }

    public var action: Action
    public var player: String
    public var reason: Reason
    /// The stream that tied the player to the device, for device decisions.
    public var stream: PlaybackStreamFacts?
    /// The device's description ("Headphones"), for device decisions.
    public var device: String?

    public init(action: Action, player: String, reason: Reason, stream: PlaybackStreamFacts? = nil, device: String? = nil) {
        self.action = action
        self.player = player
        self.reason = reason
        self.stream = stream
        self.device = device
    }

    /// "paused org.mpris.MediaPlayer2.mpv (stream 42 of mpv, pid 1234, on Headphones): the device went away"
    public var summary: String {
        let verb = switch action {
        case .pause: "paused"
        case .play: "resumed"
        case .none: "left"
        }
        var context: [String] = []
        if let stream {
            var text = "stream \(stream.index)"
            if let program = stream.processBinary ?? stream.applicationName { text += " of \(program)" }
            if let pid = stream.processID { text += ", pid \(pid)" }
            context.append(text)
        }
        if let device { context.append("on \(device)") }
        let why = switch reason {
        case .deviceLost: "its device went away"
        case .deviceBack: "its device is back"
        case .callBegan: "a call began"
        case .callEnded: "the call ended"
        case .sleep: "the machine goes to sleep"
        case .ignoredPause: "it was sent Pause and plays on"
        }
        return "\(verb) \(player)\(context.isEmpty ? "" : " (\(context.joined(separator: ", ")))"): \(why)"
    }
}

/// Which `play`/`restart`/`stop` of the app an output event belongs to.
///
/// Events hop from the PulseAudio thread to the app's queue; by the time one arrives, the app
/// may have restarted the same entry (a seek, Play after the end), and a `.finished` of the old
/// run would then end the new one. Every event carries the serial of the command it follows;
/// the app drops those older than its last command.
public struct PlaySerial: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var value: UInt64

    public init(_ value: UInt64) { self.value = value }

    public static func < (lhs: PlaySerial, rhs: PlaySerial) -> Bool { lhs.value < rhs.value }

    public var next: PlaySerial { PlaySerial(value &+ 1) }

    public var description: String { "#\(value)" }
}

public import DBusKit
public import PlayerCore

/// The guard's decisions and stream map on the bus: the arguments of `OtherPlayerDecision`
/// and the dictionaries of `OtherStreams`, the same from `aubade serve` (org.aubade.AudioSession1)
/// and `aubade guard` (org.aubade.Guard1).
public enum GuardWire {
    public static let decisionSignal = "OtherPlayerDecision"
    public static let streamsMethod = "OtherStreams"

    /// (s action, s player, s reason, a{sv} stream): the stream empty when none is involved.
    public static func decisionArguments(_ decision: GuardDecision) -> [DBusValue] {
        var stream = decision.stream.map(streamEntries) ?? []
        if let device = decision.device { stream.append(("device", .string(EchoText.safe(device)))) }
        return [.string(decision.action.rawValue), .string(EchoText.safe(decision.player)),
                .string(decision.reason.rawValue), .vardict(stream)]
    }

    /// aa{sv}: every other playback stream, with the player it belongs to ("" for none).
    public static func streams(_ owners: [(stream: PlaybackStreamFacts, owner: StreamOwner?)]) -> DBusValue {
        .array(elementSignature: "a{sv}", owners.map { entry in
            .vardict(streamEntries(entry.stream) + [
                ("role", .string(EchoText.safe(entry.stream.role ?? ""))),
                ("player", .string(EchoText.safe(entry.owner?.player ?? ""))),
                ("matched_by", .string(entry.owner?.match.rawValue ?? "")),
            ])
        })
    }

    /// Client-given text (a program's name, its own claims about itself) is capped and escaped.
    static func streamEntries(_ stream: PlaybackStreamFacts) -> [(String, DBusValue)] {
        [("index", .uint32(stream.index)),
         ("sink", .string(EchoText.safe(stream.sinkName ?? ""))),
         ("process_id", .int32(stream.processID ?? 0)),
         ("binary", .string(EchoText.safe(stream.processBinary ?? ""))),
         ("application", .string(EchoText.safe(stream.applicationName ?? "")))]
    }
}

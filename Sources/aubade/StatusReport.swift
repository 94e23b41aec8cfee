import DBusKit
import FoundationEssentials

/// `aubade status --json`: the player's state as one JSON object, for scripts.
struct StatusReport: Encodable {
    var status: String
    var trackID: String?
    var title: String?
    var artists: [String]
    var album: String?
    var url: String?
    var artURL: String?
    /// Seconds.
    var position: Double
    var length: Double?
    var loopStatus: String
    var shuffle: Bool
    var volume: Double
    var route: [String: String]?
    /// Why it is paused (org.aubade.AudioSession1.PauseReason), e.g. "noSoundServer".
    var pauseReason: String?
    /// A stream's connection (org.aubade.AudioSession1.Stream): state, summary, station, attempt.
    var stream: [String: String]?
    /// The current track's leveling (org.aubade.AudioSession1.ReplayGain).
    var replayGain: ReplayGain?

    struct ReplayGain: Encodable {
        var mode: String
        /// dB applied to the samples.
        var applied: Double
        var source: String
        var limitedByPeak: Bool

        init?(fields: [String: DBusValue]) {
            guard let mode = fields["mode"]?.asString else { return nil }
            self.mode = mode
            applied = fields["applied"]?.asDouble ?? 0
            source = fields["source"]?.asString ?? "none"
            limitedByPeak = fields["limitedByPeak"]?.asBool ?? false
        }
    }

    init(player: [String: DBusValue], route: [String: DBusValue]?) {
        let metadata = player["Metadata"]?.asVardict ?? [:]
        status = player["PlaybackStatus"]?.asString ?? "Stopped"
        trackID = metadata["mpris:trackid"]?.asObjectPath
        title = metadata["xesam:title"]?.asString
        artists = metadata["xesam:artist"]?.asStringArray ?? []
        album = metadata["xesam:album"]?.asString
        url = metadata["xesam:url"]?.asString
        artURL = metadata["mpris:artUrl"]?.asString
        position = Double(player["Position"]?.asInt64 ?? 0) / 1_000_000
        length = metadata["mpris:length"]?.asInt64.map { Double($0) / 1_000_000 }
        loopStatus = player["LoopStatus"]?.asString ?? "None"
        shuffle = player["Shuffle"]?.asBool ?? false
        volume = player["Volume"]?.asDouble ?? 1
        self.route = route.flatMap { fields in
            let strings = fields.compactMapValues(\.asString)
            return strings.isEmpty ? nil : strings
        }
    }

    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation

/// What must differ between two servers and is masked or mapped, not compared as it is:
/// times (uptime, play time, elapsed time, the bit rate of the moment, the database's date, the
/// dates of stored playlists, which each server wrote itself), and the numbers each server
/// gives out its own way, mapped rather than dropped: song ids, queue versions and update job
/// ids. Each is paired where it first appears at the same place in both answers and must then
/// stay paired: an id mpd gives one song and Aubade another shows as a difference.
struct AnswerMasks {
    private var ids = Pairing(prefix: "id#")
    private var versions = Pairing(prefix: "version#")
    private var jobs = Pairing(prefix: "job#")

    /// Keys whose values are times of the moment, masked in these commands' answers.
    private static let momentary: [String: Set<String>] = [
        "status": ["elapsed", "bitrate"],
        "stats": ["uptime", "playtime", "db_update"],
    ]

    mutating func apply(to exchange: inout Exchange) {
        let count = min(exchange.mpd.count, exchange.aubade.count)
        for index in 0..<max(exchange.mpd.count, exchange.aubade.count) {
            let paired = index < count
            let mpdLine = index < exchange.mpd.count ? exchange.mpd[index] : nil
            let aubadeLine = index < exchange.aubade.count ? exchange.aubade[index] : nil
            let (mpdKey, mpdValue) = Self.split(mpdLine)
            let (aubadeKey, aubadeValue) = Self.split(aubadeLine)
            let sameKey = paired && mpdKey == aubadeKey
            func pair(_ pairing: inout Pairing, _ key: String) {
                let (left, right) = pairing.labels(mpd: mpdKey == key ? mpdValue : nil,
                                                   aubade: aubadeKey == key ? aubadeValue : nil, together: sameKey)
                if let left { exchange.mpd[index] = "\(key): \(left)" }
                if let right { exchange.aubade[index] = "\(key): \(right)" }
            }
            for key in ["Id", "songid", "nextsongid"] { pair(&ids, key) }
            pair(&jobs, "updating_db")
            if exchange.commands.contains("status") { pair(&versions, "playlist") }
            let masked = exchange.commands.reduce(into: Set<String>()) { $0.formUnion(Self.momentary[$1] ?? []) }
            for key in masked {
                if mpdKey == key { exchange.mpd[index] = "\(key): <masked>" }
                if aubadeKey == key { exchange.aubade[index] = "\(key): <masked>" }
            }
            // status `time: ELAPSED:TOTAL`: the elapsed part is of the moment.
            if exchange.commands.contains("status") {
                if mpdKey == "time", let total = mpdValue?.split(separator: ":").last { exchange.mpd[index] = "time: <masked>:\(total)" }
                if aubadeKey == "time", let total = aubadeValue?.split(separator: ":").last { exchange.aubade[index] = "time: <masked>:\(total)" }
            }
        }
        Self.maskStoredPlaylistDates(&exchange.mpd)
        Self.maskStoredPlaylistDates(&exchange.aubade)
    }

    /// A stored playlist's `Last-Modified` is when that server wrote it (a playlist of the music
    /// folder has a "/" in its name, or is at the root beside songs: those are compared).
    private static func maskStoredPlaylistDates(_ lines: inout [String]) {
        for index in lines.indices.dropFirst() where lines[index].hasPrefix("Last-Modified: ") {
            let before = lines[index - 1]
            if before.hasPrefix("playlist: "), !before.dropFirst("playlist: ".count).contains("/") {
                lines[index] = "Last-Modified: <masked: when this server wrote it>"
            }
        }
    }

    static func split(_ line: String?) -> (String?, String?) {
        guard let line, let colon = line.range(of: ": ") else { return (nil, nil) }
        return (String(line[..<colon.lowerBound]), String(line[colon.upperBound...]))
    }
}

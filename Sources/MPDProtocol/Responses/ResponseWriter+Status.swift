public import PlayerCore

/// `status`, `stats`, `outputs`, `decoders` and the other listings, in mpd's order and under
/// mpd's conditions (`PlayerCommands.cxx`, `Stats.cxx`, `output/Print.cxx`…).
extension ResponseWriter {
    public mutating func status(_ status: StatusReport) {
        if let volume = status.volume { line("volume", volume) }
        line("repeat", status.repeats ? 1 : 0)
        line("random", status.random ? 1 : 0)
        line("single", status.single.rawValue)
        line("consume", status.consume ? 1 : 0)
        line("partition", status.partition)
        line("playlist", status.playlistVersion)
        line("playlistlength", status.playlistLength)
        line("mixrampdb", Self.shortest(status.mixRampDB))
        line("state", status.state.rawValue)
        if status.crossfadeSeconds > 0 { line("xfade", status.crossfadeSeconds) }
        if status.mixRampDelay > 0 { line("mixrampdelay", Self.shortest(status.mixRampDelay)) }
        if let current = status.current {
            line("song", current.position)
            line("songid", current.id)
        }
        if status.state != .stop {
            let elapsed = max(status.elapsed, 0) / 1000
            let total = status.duration.map { max($0, 0) / 1000 }
            line("time", "\((elapsed + 500) / 1000):\(total.map { ($0 + 500) / 1000 } ?? 0)")
            line("elapsed", Self.seconds(milliseconds: elapsed))
            line("bitrate", status.bitRate)
            if let total { line("duration", Self.seconds(milliseconds: total)) }
            if let format = status.audioFormat { line("audio", format.description) }
        }
        if let job = status.updateJob, job != 0 { line("updating_db", job) }
        if let error = status.error { line("error", error) }
        if let next = status.next {
            line("nextsong", next.position)
            line("nextsongid", next.id)
        }
    }

    public mutating func stats(_ stats: StatsReport) {
        line("uptime", stats.uptime)
        line("playtime", stats.playtime)
        guard let library = stats.library else { return }
        line("artists", library.artists)
        line("albums", library.albums)
        line("songs", library.songs)
        line("db_playtime", max(library.totalDuration, 0) / 1_000_000)
        if let update = library.lastUpdate { line("db_update", update) }
    }

    public mutating func outputs(_ outputs: [OutputInfo]) {
        for output in outputs {
            line("outputid", output.id)
            line("outputname", output.name)
            line("plugin", output.plugin)
            line("outputenabled", output.enabled ? 1 : 0)
            for (key, value) in output.attributes.sorted(by: { Array($0.key.utf8).lexicographicallyPrecedes($1.key.utf8) }) {
                line("attribute", "\(key)=\(value)")
            }
        }
    }

    public mutating func decoders(_ decoders: [DecoderInfo]) {
        for decoder in decoders {
            line("plugin", decoder.plugin)
            for suffix in decoder.suffixes { line("suffix", suffix) }
            for mimeType in decoder.mimeTypes { line("mime_type", mimeType) }
        }
    }

    /// `tagtypes`: the kinds this client receives, in mpd's order.
    public mutating func tagTypes(_ enabled: Set<TagKind>) {
        for kind in TagKind.mpdOrder where enabled.contains(kind) { line("tagtype", kind.rawValue) }
    }

    /// `urlhandlers`: `handler: http://`…
    public mutating func urlHandlers(_ schemes: [String]) {
        for scheme in schemes { line("handler", scheme) }
    }

    /// `commands`/`notcommands`: `command: NAME`…
    public mutating func commandNames(_ names: [String]) {
        for name in names { line("command", name) }
    }

    /// The answer to `idle`: a `changed:` line per subsystem, in mpd's order.
    public mutating func changes(_ subsystems: IdleSubsystems) {
        for name in subsystems.names { line("changed", name) }
    }

    /// `count` without `group`, or one group's totals after its tag line.
    public mutating func countTotals(songs: Int, playtime: Microseconds) {
        line("songs", songs)
        line("playtime", max(playtime, 0) / 1_000_000)
    }

    /// One row of `count … group TAG`: the value (empty for songs without the tag), then totals.
    public mutating func countGroup(_ kind: TagKind, _ value: String, songs: Int, playtime: Microseconds) {
        tag(kind, value)
        countTotals(songs: songs, playtime: playtime)
    }

    /// fmt's `{}` of a float: the shortest text that reads back the same, integers without ".0"
    /// (`mixrampdb: 0`).
    static func shortest(_ value: Float) -> String {
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            return String(Int64(value))
        }
        return value.description
    }
}

import FFmpegWire
import PlayerCore

/// Turns the tags FFmpeg read from an MP4's `ilst` atoms (or an ADTS file's ID3 tag) into a
/// `Track`, with the same types as every other format: FFmpeg's names are "title", "artist",
/// "album_artist", "album", "track" ("3/12"), "disc" ("1/2"), "date", "genre", and the iTunes
/// freeform atoms under their own names ("replaygain_track_gain", "iTunSMPB"…).
enum MP4TagMapping {
    static func track(path: FilePath, facts: TrackFacts) -> Track {
        // First value of each key; keys compared without case (ID3 and freeform atoms vary).
        var values: [String: String] = [:]
        for tag in facts.tags {
            let key = tag.key.lowercased()
            if values[key] == nil, let value = clean(tag.value) { values[key] = value }
        }
        var track = Track(
            path: path,
            title: values["title"],
            artists: values["artist"].map { [$0] } ?? [],
            album: values["album"],
            albumArtists: values["album_artist"].map { [$0] } ?? [],
            genres: values["genre"].map { [$0] } ?? [],
            trackNumber: values["track"].flatMap(TagMapping.leadingNumber),
            discNumber: values["disc"].flatMap(TagMapping.leadingNumber),
            date: values["date"].map(date),
            length: facts.lengthMicroseconds)
        track.lengthIsEstimate = facts.lengthIsEstimate
        let gains = ReplayGainTags(
            trackGain: values["replaygain_track_gain"].flatMap(ReplayGainTags.gain(parsing:)),
            trackPeak: values["replaygain_track_peak"].flatMap(ReplayGainTags.peak(parsing:)),
            albumGain: values["replaygain_album_gain"].flatMap(ReplayGainTags.gain(parsing:)),
            albumPeak: values["replaygain_album_peak"].flatMap(ReplayGainTags.peak(parsing:)))
        track.replayGain = gains.isEmpty ? nil : gains
        return track
    }

    /// iTunes writes `©day` as a full timestamp ("2011-05-01T07:00:00Z"): the date part.
    private static func date(_ value: String) -> String {
        guard let t = value.firstIndex(of: "T"), value.distance(from: value.startIndex, to: t) == 10 else { return value }
        return String(value[..<t])
    }

    /// Trimmed, control characters dropped, nil when empty.
    private static func clean(_ value: String) -> String? {
        let scalars = value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }
        var text = Substring(String(String.UnicodeScalarView(scalars)))
        while text.first?.isWhitespace == true { text.removeFirst() }
        while text.last?.isWhitespace == true { text.removeLast() }
        return text.isEmpty ? nil : String(text)
    }
}

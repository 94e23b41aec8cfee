import FFmpegWire
import PlayerCore

/// Turns the tags FFmpeg read from an MP4's `ilst` atoms (or an ADTS file's ID3 tag) into a
/// `Track`, with the same types as every other format: FFmpeg's names are "title", "artist",
/// "album_artist", "album", "track" ("3/12"), "disc" ("1/2"), "date", "genre", and the iTunes
/// freeform atoms under their own names ("replaygain_track_gain", "iTunSMPB"…).
///
/// The other tags (`moreTags`) as mpd 0.23 reads FFmpeg's names (FfmpegMetaData.cxx): any
/// name that is an MPD tag name ("composer", "comment", "grouping", "performer", freeform
/// "LABEL"…), FFmpeg's sort names, and the MusicBrainz freeform atoms Picard writes. FFmpeg 5.1
/// keeps the first value of an atom only (a second composer is lost before it reaches us).
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
        var more = MoreTags()
        for tag in facts.tags {
            if let kind = moreTagKinds[tag.key.lowercased()] { more.add(kind, tag.value) }
        }
        track.moreTags = more.values
        track.audioFormat = audioFormat(facts)
        return track
    }

    /// FFmpeg's names (lower-case) of the kinds `Track` has no field for. "sort_composer" is
    /// ours: mpd 0.23 does not read it.
    static let moreTagKinds: [String: TagKind] = {
        var kinds: [String: TagKind] = [:]
        for kind in TagKind.allCases where !TagKind.trackFields.contains(kind) { kinds[kind.rawValue.lowercased()] = kind }
        let aliases: [String: TagKind] = [
            // ID3 (an ADTS file's tag) and MP4 sort atoms (soar, soal, soaa, soco).
            "artist-sort": .artistSort, "album-sort": .albumSort,
            "sort_artist": .artistSort, "sort_album": .albumSort, "sort_album_artist": .albumArtistSort,
            "sort_composer": .composerSort,
            // Freeform atoms (----:com.apple.iTunes:NAME), as Picard names them.
            "albumartistsort": .albumArtistSort,
            "musicbrainz artist id": .musicBrainzArtistID, "musicbrainz album id": .musicBrainzAlbumID,
            "musicbrainz album artist id": .musicBrainzAlbumArtistID, "musicbrainz track id": .musicBrainzTrackID,
            "musicbrainz release track id": .musicBrainzReleaseTrackID, "musicbrainz work id": .musicBrainzWorkID,
        ]
        kinds.merge(aliases) { _, alias in alias }
        return kinds
    }()

    /// The container's rate and channels; ALAC's bits as stored (16, 24), lossy codecs (AAC,
    /// MP3 in MP4) as float, which FFmpeg's decoders compute in. The rate is the container's:
    /// HE-AAC with implicit signalling decodes to twice it.
    static func audioFormat(_ facts: TrackFacts) -> AudioFormatFacts? {
        guard facts.sampleRate > 0, facts.channels > 0 else { return nil }
        guard facts.codecName == "alac" else {
            return AudioFormatFacts(sampleRate: facts.sampleRate, bitsPerSample: nil, channels: facts.channels)
        }
        // An ALAC stream the header gives no size for: better no format than a guessed one.
        guard let bits = facts.bitsPerSample, (1...32).contains(bits) else { return nil }
        return AudioFormatFacts(sampleRate: facts.sampleRate, bitsPerSample: bits, channels: facts.channels)
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

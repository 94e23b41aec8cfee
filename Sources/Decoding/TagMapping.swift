import Mpg123Kit
import PlayerCore

/// Turns raw ID3 values into `Track` fields and `moreTags`: ID3v2 first, ID3v1 as the fallback.
///
/// Multiple values are split only where the tag itself separates them (NUL in ID3v2.4);
/// "/" is left alone because it is part of real names ("AC/DC").
enum TagMapping {
    static func track(path: FilePath, tags: ID3Tags) -> Track {
        let v1 = tags.version1
        var track = Track(
            path: path,
            title: text(tags, "TIT2") ?? nonEmpty(v1?.title),
            artists: list(tags, "TPE1", fallback: v1?.artist),
            album: text(tags, "TALB") ?? nonEmpty(v1?.album),
            albumArtists: list(tags, "TPE2", fallback: nil),
            genres: genres(tags),
            trackNumber: tags.firstValue(of: "TRCK").flatMap(leadingNumber) ?? v1?.trackNumber,
            discNumber: tags.firstValue(of: "TPOS").flatMap(leadingNumber),
            // TDRC is ID3v2.4's recording time, TYER the ID3v2.3 year.
            date: text(tags, "TDRC") ?? text(tags, "TYER") ?? nonEmpty(v1?.year))
        track.moreTags = moreTags(tags)
        return track
    }

    private static func text(_ tags: ID3Tags, _ id: String) -> String? {
        nonEmpty(tags.firstValue(of: id))
    }

    private static func list(_ tags: ID3Tags, _ id: String, fallback: String?) -> [String] {
        let values = tags.values(of: id).compactMap(nonEmpty)
        if !values.isEmpty { return values }
        return nonEmpty(fallback).map { [$0] } ?? []
    }

    private static func nonEmpty(_ value: String?) -> String? {
        guard let value else { return nil }
        let trimmed = trim(value)
        return trimmed.isEmpty ? nil : trimmed
    }

    private static func trim(_ value: String) -> String {
        var slice = Substring(value)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }

    /// "3/12" → 3, "07" → 7, "" or "x" → nil.
    static func leadingNumber(_ value: String) -> Int? {
        let digits = trim(value).prefix { $0.isASCII && $0.isNumber }
        guard let number = Int(digits), number > 0 else { return nil }
        return number
    }

    private static func genres(_ tags: ID3Tags) -> [String] {
        var result: [String] = []
        for value in tags.values(of: "TCON") {
            for genre in parseGenre(value) where !result.contains(genre) {
                result.append(genre)
            }
        }
        if result.isEmpty, let index = tags.version1?.genreIndex, let name = ID3Genre.name(forIndex: index) {
            result.append(name)
        }
        return result
    }

    /// One TCON value to genre names.
    ///
    /// ID3v2.3 writes ID3v1 numbers in parentheses, optionally followed by a refinement
    /// ("(17)", "(17)Rock", "(4)(17)"), with "(RX)"/"(CR)" for Remix/Cover and "((" escaping a
    /// literal parenthesis; ID3v2.4 allows a bare number ("17").
    static func parseGenre(_ raw: String) -> [String] {
        var rest = Substring(trim(raw))
        var names: [String] = []
        while rest.hasPrefix("("), !rest.hasPrefix("(("), let close = rest.firstIndex(of: ")") {
            let code = rest[rest.index(after: rest.startIndex)..<close]
            if let name = name(forCode: code) { names.append(name) }
            rest = rest[rest.index(after: close)...]
        }
        if rest.hasPrefix("((") { rest = rest.dropFirst() }
        let refinement = trim(String(rest))
        if !refinement.isEmpty {
            // The text refines (replaces) the numeric genre right before it.
            if !names.isEmpty { names.removeLast() }
            names.append(name(forCode: Substring(refinement)) ?? refinement)
        }
        return names
    }

    private static func name(forCode code: Substring) -> String? {
        switch code {
        case "RX": return "Remix"
        case "CR": return "Cover"
        default:
            guard !code.isEmpty, code.allSatisfy({ $0.isASCII && $0.isNumber }), let index = Int(code) else { return nil }
            return ID3Genre.name(forIndex: index)
        }
    }
}

extension TagMapping {
    /// ReplayGain from ID3v2 TXXX frames (`REPLAYGAIN_TRACK_GAIN` …, any case), each field
    /// falling back to the LAME tag's; nil when neither has a gain.
    static func replayGain(tags: ID3Tags, lame: ReplayGainTags?) -> ReplayGainTags? {
        let gains = ReplayGainTags(
            trackGain: tags.userText("REPLAYGAIN_TRACK_GAIN").flatMap(ReplayGainTags.gain(parsing:)) ?? lame?.trackGain,
            trackPeak: tags.userText("REPLAYGAIN_TRACK_PEAK").flatMap(ReplayGainTags.peak(parsing:)) ?? lame?.trackPeak,
            albumGain: tags.userText("REPLAYGAIN_ALBUM_GAIN").flatMap(ReplayGainTags.gain(parsing:)) ?? lame?.albumGain,
            albumPeak: tags.userText("REPLAYGAIN_ALBUM_PEAK").flatMap(ReplayGainTags.peak(parsing:)) ?? lame?.albumPeak)
        return gains.isEmpty ? nil : gains
    }
}

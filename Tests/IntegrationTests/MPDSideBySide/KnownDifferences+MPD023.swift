@testable import TestSupport

/// How Aubade answers otherwise than mpd 0.23.12, each with its reason: the whole table, and
/// here its rows about reading files and naming them (the decoders, the file system, time).
extension KnownDifferences {
    static let mpd023: [KnownDifference] = [
        mp3SampleFormat, mp3Length, latin1FileName, tagOrder, listFilesOrder, farFutureTimes,
    ] + protocolRows

    static let mp3SampleFormat = KnownDifference(
        name: "MP3 read as 24-bit",
        reason: "mpd decodes MP3 with libmad, whose output is 24-bit (Format: 44100:24:2, and audio: in status while "
            + "one plays); Aubade decodes MP3 with libmpg123 to the 16-bit samples it plays (44100:16:2)") { exchange in
        var changed = false
        for range in SongBlocks.ranges(in: exchange.mpd) where SongBlocks.isMP3(exchange.mpd, range) {
            for index in range where exchange.mpd[index].hasPrefix("Format: ") && exchange.mpd[index].contains(":24:") {
                exchange.mpd[index] = exchange.mpd[index].replacingOccurrences(of: ":24:", with: ":16:")
                changed = true
            }
        }
        // status names no file: every song of the library that mpd reads at 24 bits is an MP3.
        if exchange.commands.contains("status") {
            for index in exchange.mpd.indices where exchange.mpd[index].hasPrefix("audio: ") && exchange.mpd[index].contains(":24:") {
                exchange.mpd[index] = exchange.mpd[index].replacingOccurrences(of: ":24:", with: ":16:")
                changed = true
            }
        }
        return changed
    }

    static let mp3Length = KnownDifference(
        name: "MP3 length with the encoder's delay and padding",
        reason: "mpd counts an MP3's every frame (libmad), with the encoder's delay and padding: up to 2,300 samples, "
            + "0.052 s at 44.1 kHz, more; Aubade reads the LAME tag and counts only the music, as it plays it gaplessly. "
            + "Mapped: each of mpd's MP3 lengths is 0 to 0.06 s longer than Aubade's (sums of them, in count and stats, "
            + "0 to 1 s)") { exchange in
        var changed = false
        let blocks = SongBlocks.ranges(in: exchange.mpd)
        func isMP3Line(_ index: Int) -> Bool {
            blocks.contains { $0.contains(index) && SongBlocks.isMP3(exchange.mpd, $0) }
        }
        for index in exchange.mpd.indices where index < exchange.aubade.count {
            let (key, mine) = AnswerMasks.split(exchange.mpd[index])
            let (otherKey, theirs) = AnswerMasks.split(exchange.aubade[index])
            guard let key, key == otherKey, let mine = mine.flatMap(Double.init), let theirs = theirs.flatMap(Double.init),
                  mine != theirs else { continue }
            let tolerance: Double
            switch key {
            case "duration" where isMP3Line(index) || exchange.commands.contains("status"): tolerance = 0.06
            case "db_playtime" where exchange.commands.contains("stats"): tolerance = 1
            case "playtime" where exchange.commands.contains("count"): tolerance = 1
            default: continue
            }
            if mine - theirs >= 0, mine - theirs <= tolerance {
                exchange.mpd[index] = exchange.aubade[index]
                changed = true
            }
        }
        return changed
    }

    static let latin1FileName = KnownDifference(
        name: "a file name that is not UTF-8",
        reason: "mpd sends a file name's bytes as they are on disk, which are not UTF-8 here (Latin-1 \"Caf\\xE9\"): "
            + "python-mpd and most clients cannot decode that line. Aubade reads such a name as Windows-1252 and sends "
            + "it as UTF-8 (\"Café\"). Mapped: mpd's bytes read the same way") { exchange in
        let raw = MPDAnswer.text(MPDTestLibrary.latin1SongBytes)
        let rawName = String(raw.split(separator: "/").last ?? "")
        let readable = String(MPDTestLibrary.latin1SongAsUTF8.split(separator: "/").last ?? "")
        var changed = false
        for index in exchange.mpd.indices where exchange.mpd[index].contains(rawName) {
            exchange.mpd[index] = exchange.mpd[index].replacingOccurrences(of: rawName, with: readable)
            changed = true
        }
        return changed
    }

    static let tagOrder = KnownDifference(
        name: "the order of a song's tags",
        reason: "mpd writes a song's tags in the order its tag reader met them: a FLAC's Vorbis comments as the file "
            + "has them, an MP3's TXXX MusicBrainz frames as stored; Aubade writes them in one order for every "
            + "format (mpd's for the common ID3 frames). Mapped: a song's tag lines compared as a set") { exchange in
        let mine = SongBlocks.ranges(in: exchange.mpd)
        let theirs = SongBlocks.ranges(in: exchange.aubade)
        guard mine.count == theirs.count else { return false }
        var changed = false
        for (left, right) in zip(mine, theirs) where exchange.mpd[left.lowerBound] == exchange.aubade[right.lowerBound] {
            let leftTags = exchange.mpd[left].filter(SongBlocks.isTag)
            let rightTags = exchange.aubade[right].filter(SongBlocks.isTag)
            guard leftTags != rightTags, leftTags.sorted() == rightTags.sorted() else { continue }
            // mpd's tag lines take Aubade's order, in the places mpd's tag lines stood.
            var reordered = rightTags.makeIterator()
            for index in left where SongBlocks.isTag(exchange.mpd[index]) {
                exchange.mpd[index] = reordered.next() ?? exchange.mpd[index]
            }
            changed = true
        }
        return changed
    }

    static let listFilesOrder = KnownDifference(
        name: "listfiles in name order",
        reason: "mpd lists a folder's files in the order the file system returns them (readdir: ext4's hash order, "
            + "no order a person could use); Aubade sorts them by name. Mapped: mpd's entries sorted by name") { exchange in
        guard exchange.command == "listfiles" else { return false }
        let sorted = sortedEntries(exchange.mpd)
        guard sorted != exchange.mpd else { return false }
        exchange.mpd = sorted
        return true
    }

    /// A `listfiles` answer's entries (a `file:` or `directory:` line and the lines after it)
    /// sorted by name, as Aubade sorts them (Swift's String order).
    private static func sortedEntries(_ lines: [String]) -> [String] {
        var entries: [[String]] = []
        var tail: [String] = []
        for line in lines {
            if line.hasPrefix("file: ") || line.hasPrefix("directory: ") {
                entries.append([line])
            } else if line == "OK" || line.hasPrefix("ACK ") || entries.isEmpty {
                tail.append(line)
            } else {
                entries[entries.count - 1].append(line)
            }
        }
        func name(_ entry: [String]) -> String { AnswerMasks.split(entry[0]).1 ?? "" }
        return entries.sorted { name($0) < name($1) }.flatMap { $0 } + tail
    }

    static let farFutureTimes = KnownDifference(
        name: "modified-since after 2262",
        reason: "mpd keeps a time as nanoseconds in 64 bits (std::chrono::system_clock): a date after 2262-04-11 "
            + "overflows, and every song is \"modified since\" it. Aubade compares seconds: none is. Mapped: mpd's "
            + "answer taken as the empty one it means") { exchange in
        let overflowing = ["2999-01-01T00:00:00Z", "9999999999"]
        guard exchange.sent.contains(where: { line in overflowing.contains { line.contains("modified-since \($0)") } }),
              exchange.mpd != exchange.aubade else { return false }
        exchange.mpd = exchange.command == "count" ? ["songs: 0", "playtime: 0", "OK"] : ["OK"]
        return true
    }
}

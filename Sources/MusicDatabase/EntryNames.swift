import PlayerCore

/// How a name on disk becomes a part of a URI.
///
/// A URI is text: a name that is not UTF-8 is shown as `FilePath.displayString` reads it
/// (Windows-1252: `caf\xe9.mp3` is "café.mp3"; mpd would send the raw bytes, which breaks
/// clients). Control characters (a tab, an escape; 0x00–0x1F, 0x7F) are shown as Unicode's
/// pictures of them (U+2400…: "␉"), so that the protocol, which must not send them, can send
/// the URI as it is and get it back. Names with a newline are not in the library at all, as
/// in mpd ("we don't look at files with newlines in their name").
///
/// Two names of one folder may then show the same ("café.mp3" in UTF-8 and in Latin-1): the
/// one whose bytes are its text keeps it; the others, in byte order, get " (2)", " (3)"…
/// before the extension ("café (2).mp3"), the first that is free. Each URI maps back to the
/// exact bytes (`LibrarySnapshot.filePath(forURI:)`).
enum EntryNames {
    static func shown(_ raw: [UInt8]) -> String {
        let text = FilePath.displayString(of: raw)
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { scalar in
            guard isControl(scalar) else { return scalar }
            return Unicode.Scalar(scalar.value == 0x7F ? 0x2421 : 0x2400 + scalar.value) ?? "\u{FFFD}"
        }))
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.value < 0x20 || scalar.value == 0x7F }

    /// Names to hide: hidden files (".x"), and names with a newline (as mpd).
    static func isSkipped(_ raw: [UInt8]) -> Bool {
        raw.first == UInt8(ascii: ".") || raw.contains(10)
    }

    /// The shown names of one folder's entries, unique, in the order given. `files[i]` tells
    /// whether entry `i` is a file (a suffix goes before its extension).
    static func unique(_ raws: [[UInt8]], files: [Bool], keepOrder: Bool = false) -> [String] {
        var result = [String?](repeating: nil, count: raws.count)
        let shownNames = raws.map(shown)
        var taken = Set<[UInt8]>()
        // Names shown as their own bytes keep them.
        for index in raws.indices where Array(shownNames[index].utf8) == raws[index] {
            if taken.insert(raws[index]).inserted { result[index] = shownNames[index] }
        }
        let order = keepOrder ? Array(raws.indices) : raws.indices.sorted { raws[$0].lexicographicallyPrecedes(raws[$1]) }
        for index in order where result[index] == nil {
            var candidate = shownNames[index]
            var number = 2
            while !taken.insert(Array(candidate.utf8)).inserted {
                candidate = numbered(shownNames[index], number, isFile: files[index])
                number += 1
            }
            result[index] = candidate
        }
        return result.map { $0 ?? "" }
    }

    static func numbered(_ name: String, _ number: Int, isFile: Bool) -> String {
        if isFile, let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return name[..<dot] + " (\(number))" + name[dot...]
        }
        return name + " (\(number))"
    }
}

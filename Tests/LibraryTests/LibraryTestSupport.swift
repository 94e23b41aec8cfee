import Foundation
import Decoding
import PlayerCore
@testable import Library

/// A reader that never opens the file: tracks carry tags parsed from the file name
/// ("d2 t05 name.mp3" → disc 2, track 5), and names containing "bad" fail.
/// Keeps the ordering and playlist tests fast and independent of lame.
func fakeReader(_ path: FilePath) throws(DecodingError) -> Track {
    let name = path.lastComponent.displayString
    if name.contains("bad") { throw DecodingError(path: path, reason: "not an MP3 file") }
    var track = Track(path: path)
    let stem = name.split(separator: ".").first ?? Substring(name)
    for word in stem.split(separator: " ") {
        if word.hasPrefix("d"), let n = Int(word.dropFirst()) { track.discNumber = n }
        if word.hasPrefix("t"), let n = Int(word.dropFirst()) { track.trackNumber = n }
    }
    return track
}

/// Creates empty files (enough for `fakeReader`) and directories under `root`.
func touch(_ root: String, _ relativePaths: [String]) throws {
    for relative in relativePaths {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        if relative.hasSuffix("/") { continue }
        guard FileManager.default.createFile(atPath: path, contents: Data()) else {
            throw CocoaError(.fileWriteUnknown)
        }
    }
}

func names(_ tracks: [Track], relativeTo root: String) -> [String] {
    tracks.map { String($0.location.displayString.dropFirst(root.count + 1)) }
}

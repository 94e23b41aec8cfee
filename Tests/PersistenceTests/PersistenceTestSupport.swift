import Foundation
import PlayerCore
@testable import TestSupport

/// Empty files at `names` under `directory` (StateStore only checks that queued files exist).
func makeFiles(_ names: [String], in directory: String) throws -> [String] {
    try names.map { name in
        let path = directory + "/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Fixtures.write([], to: path)
        return path
    }
}

/// A fully tagged track at `path`.
func track(_ path: String, _ number: Int = 1) -> Track {
    Track(path: FilePath(path)!, title: "Título \(number) ✓", artists: ["Björk", "Ólafur"], album: "Album 🎵",
          albumArtists: ["Björk"], genres: ["Electronic", "Pop"], trackNumber: number, discNumber: 1,
          date: "2001-08-27", length: 123_456_789)
}

func memento(_ paths: [String], current: Int?, position: Microseconds = 5_000_000,
             order: [Int]? = nil, shuffle: Bool = false) -> PlayerMemento {
    PlayerMemento(tracks: paths.enumerated().map { track($1, $0 + 1) }, currentIndex: current,
                  position: position, volume: 0.75, loopStatus: .playlist, shuffle: shuffle,
                  playOrder: order ?? Array(paths.indices))
}

func fileExists(_ path: String) -> Bool {
    FileManager.default.fileExists(atPath: path)
}

func files(in directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
}


import Foundation
@testable import TestSupport

/// The generated library of the library benchmark (issue 12): `count` distinct full-size
/// tracks of `seconds` each, in album folders of 10 ("Album 000/0001 cbr192-info.mp3"…), made
/// from a handful of base files encoded once from one "music-like" noise (pink noise under a
/// sine sweep, so sizes are realistic: MP3 6–10 MB, FLAC ≈ 18 MB, Opus ≈ 4 MB):
/// - MP3: CBR 192 and 256 kb/s with lame's Info header, CBR 320 without (`lame -t`), VBR -V0
///   (at least 256 kb/s) with a Xing header, VBR -V2 (at least 192 kb/s) without (the case whose
///   length can only be estimated);
/// - FLAC (-5) and Opus (128 kb/s).
/// Of each 25 tracks, 21 are MP3 (the five kinds in turn), 2 FLAC, 2 Opus; track 1 is an MP3.
/// Every track is a real copy (its own inode, so a cold page cache is cold for each) whose tags
/// differ: the bases carry placeholder tags ("Title 00000", "Artist 00000", "Album 00000") of
/// fixed width whose digits are overwritten in each copy — in the ID3v2 tag, the FLAC
/// VORBIS_COMMENT block, or the OpusTags packet (whose Ogg page CRC is then recomputed).
///
/// Cached in `directory` (`.build/bench/library`, the bases in `.build/bench/library-bases`): a
/// `manifest.json` written last lists every file and its size; a run finding it complete reuses
/// the library and says so.
struct LibraryFixture {
    static let version = 2
    let directory: URL
    var count = 500
    var seconds = 240

    struct Base {
        var name: String
        var ext: String
        var encoder: String
        var arguments: @Sendable (_ wav: String, _ out: String) -> [String]
    }

    static let tags = ["--tt", "Title 00000", "--ta", "Artist 00000", "--tl", "Album 00000", "--tn", "1"]
    static let bases: [Base] = [
        Base(name: "cbr192-info", ext: "mp3", encoder: "lame") { ["--quiet", "-b", "192", "--id3v2-only"] + tags + [$0, $1] },
        Base(name: "cbr320-noheader", ext: "mp3", encoder: "lame") { ["--quiet", "-b", "320", "-t", "--id3v2-only"] + tags + [$0, $1] },
        Base(name: "vbr0-xing", ext: "mp3", encoder: "lame") { ["--quiet", "-V", "0", "-b", "256", "--id3v2-only"] + tags + [$0, $1] },
        Base(name: "cbr256-info", ext: "mp3", encoder: "lame") { ["--quiet", "-b", "256", "--id3v2-only"] + tags + [$0, $1] },
        Base(name: "vbr2-noheader", ext: "mp3", encoder: "lame") { ["--quiet", "-V", "2", "-b", "192", "-t", "--id3v2-only"] + tags + [$0, $1] },
        Base(name: "flac", ext: "flac", encoder: "flac") {
            ["-s", "-5", "-f", "--tag=TITLE=Title 00000", "--tag=ARTIST=Artist 00000", "--tag=ALBUM=Album 00000",
             "--tag=TRACKNUMBER=1", "-o", $1, $0]
        },
        Base(name: "opus", ext: "opus", encoder: "opusenc") {
            ["--quiet", "--bitrate", "128", "--title", "Title 00000", "--artist", "Artist 00000", "--album", "Album 00000",
             "--tracknumber", "1", $0, $1]
        },
    ]

    /// The base (index into `bases`) of track `index` (0-based).
    static func baseIndex(of index: Int) -> Int {
        let slot = index % 25
        switch slot {
        case 0..<21: return slot % 5
        case 21, 22: return 5
        default: return 6
        }
    }

    func relativePath(of index: Int) -> String {
        let base = Self.bases[Self.baseIndex(of: index)]
        return String(format: "Album %03d/%04d %@.%@", index / 10, index + 1, base.name, base.ext)
    }

    var manifest: URL { directory.appendingPathComponent("manifest.json") }
    /// Beside the library, not in it: mpd does not skip hidden folders.
    var basesDirectory: URL { directory.deletingLastPathComponent().appendingPathComponent("library-bases", isDirectory: true) }
    func base(_ index: Int) -> URL {
        basesDirectory.appendingPathComponent("base-\(Self.bases[index].name).\(Self.bases[index].ext)")
    }
    var files: [URL] { (0..<count).map { directory.appendingPathComponent(relativePath(of: $0)) } }

    /// Makes the library unless a complete one is there; returns a line saying which.
    func prepare() throws -> String {
        if isComplete() { return "reused the cached library in \(directory.path) (\(count) tracks; delete it to regenerate)" }
        let started = Date()
        try? FileManager.default.removeItem(at: directory)
        try? FileManager.default.removeItem(at: basesDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: basesDirectory, withIntermediateDirectories: true)
        let wav = basesDirectory.appendingPathComponent("music.wav")
        defer { try? FileManager.default.removeItem(at: wav) }
        let sox = try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path,
                                        "synth", "\(seconds)", "pinknoise", "vol", "0.5",
                                        "synth", "\(seconds)", "sine", "mix", "220-880", "vol", "0.9"], timeout: 600)
        guard sox.succeeded else { throw DaemonError("sox: \(sox)") }
        for (index, base) in Self.bases.enumerated() {
            let result = try Shell.run(base.encoder, base.arguments(wav.path, self.base(index).path), timeout: 900)
            guard result.succeeded else { throw DaemonError("\(base.encoder): \(result)") }
        }
        var sizes: [String: Int] = [:]
        for index in 0..<count {
            let target = directory.appendingPathComponent(relativePath(of: index))
            try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: base(Self.baseIndex(of: index)), to: target)
            try Self.personalize(target, number: index + 1, ogg: target.pathExtension == "opus")
            sizes[relativePath(of: index)] = try Self.size(of: target)
        }
        let root: [String: Any] = ["version": Self.version, "count": count, "seconds": seconds, "sizes": sizes]
        try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]).write(to: manifest)
        let total = sizes.values.reduce(0, +)
        return String(format: "generated the library in %.0f s: %d tracks, %.2f GB, in %@ (cached for the next runs)",
                      Date().timeIntervalSince(started), count, Double(total) / 1e9, directory.path)
    }

    /// Every file of the manifest present with its size, and the manifest of this version.
    func isComplete() -> Bool {
        guard let data = try? Data(contentsOf: manifest),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              root["version"] as? Int == Self.version, root["count"] as? Int == count, root["seconds"] as? Int == seconds,
              let sizes = root["sizes"] as? [String: Int], sizes.count == count else { return false }
        for index in 0..<count {
            let path = relativePath(of: index)
            guard let expected = sizes[path], (try? Self.size(of: directory.appendingPathComponent(path))) == expected else {
                return false
            }
        }
        return (0..<Self.bases.count).allSatisfy { FileManager.default.fileExists(atPath: base($0).path) }
    }

    static func size(of url: URL) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
    }

    /// Total bytes of the library's tracks.
    func totalBytes() -> Int { files.reduce(0) { $0 + ((try? Self.size(of: $1)) ?? 0) } }

    /// Overwrites the digits of the placeholder tags in the file's first 256 KiB: title `number`,
    /// artist `number / 50`, album `number / 10`. For Ogg, the CRC of each page touched is redone.
    static func personalize(_ url: URL, number: Int, ogg: Bool) throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        var head = [UInt8](try handle.read(upToCount: 256 * 1024) ?? Data())
        let values = [("Title ", number), ("Artist ", (number - 1) / 50), ("Album ", (number - 1) / 10)]
        var touched: [Int] = []
        // Latin-1/UTF-8 (Vorbis comments) or UTF-16LE (lame's ID3v2 frames): ASCII either way.
        func wide(_ text: String) -> [UInt8] { Array(text.utf8).flatMap { [$0, 0] } }
        for (label, value) in values {
            var found = false
            for (encode, unit) in [({ (text: String) in Array(text.utf8) }, 1), (wide, 2)] {
                let needle = encode(label + "00000")
                let digits = encode(String(format: "%05d", value))
                var at = 0
                while let offset = find(needle, in: head, from: at) {
                    head.replaceSubrange((offset + label.utf8.count * unit)..<(offset + needle.count), with: digits)
                    touched.append(offset)
                    found = true
                    at = offset + needle.count
                }
            }
            guard found else { throw DaemonError("no placeholder “\(label)00000” in \(url.lastPathComponent)") }
        }
        if ogg { try refreshOggCRCs(&head, touched: touched) }
        try handle.seek(toOffset: 0)
        try handle.write(contentsOf: Data(head))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for offset in start...(haystack.count - needle.count) where haystack[offset] == needle[0] {
            if Array(haystack[offset..<(offset + needle.count)]) == needle { return offset }
        }
        return nil
    }

    /// Walks the Ogg pages in `bytes`; each page holding a touched offset gets its CRC redone.
    private static func refreshOggCRCs(_ bytes: inout [UInt8], touched: [Int]) throws {
        var page = 0
        while page + 27 <= bytes.count, bytes[page..<(page + 4)].elementsEqual("OggS".utf8) {
            let segments = Int(bytes[page + 26])
            guard page + 27 + segments <= bytes.count else { break }
            let body = bytes[(page + 27)..<(page + 27 + segments)].reduce(0) { $0 + Int($1) }
            let end = page + 27 + segments + body
            guard end <= bytes.count else {
                if touched.contains(where: { $0 >= page }) { throw DaemonError("an OpusTags page runs past 256 KiB") }
                break
            }
            if touched.contains(where: { $0 >= page && $0 < end }) {
                for i in 22..<26 { bytes[page + i] = 0 }
                let crc = oggCRC(bytes[page..<end])
                for i in 0..<4 { bytes[page + 22 + i] = UInt8((crc >> (8 * UInt32(i))) & 0xFF) }
            }
            page = end
        }
    }

    /// Ogg's CRC-32: polynomial 0x04C11DB7, no reflection, initial value and final XOR 0.
    private static let crcTable: [UInt32] = (0..<256).map { index in
        var crc = UInt32(index) << 24
        for _ in 0..<8 { crc = crc & 0x8000_0000 != 0 ? (crc << 1) ^ 0x04C1_1DB7 : crc << 1 }
        return crc
    }

    private static func oggCRC(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc: UInt32 = 0
        for byte in bytes { crc = (crc << 8) ^ crcTable[Int(((crc >> 24) ^ UInt32(byte)) & 0xFF)] }
        return crc
    }
}

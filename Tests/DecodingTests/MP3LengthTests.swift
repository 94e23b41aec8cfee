import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// Queueing an MP3 reads its headers, not the whole file: the length from the Xing/Info frame
/// (exact) or the size (an estimate, measured exactly later), ReplayGain from TXXX or LAME.
@Suite struct MP3LengthTests {
    /// Bytes this thread has read so far (`rchar` of /proc/thread-self/io): the reader runs on
    /// the calling thread, so the other tests running in parallel do not count.
    private func threadReadBytes() throws -> Int {
        let text = try String(contentsOfFile: "/proc/thread-self/io", encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("rchar:") })
        return try #require(Int(line.dropFirst("rchar:".count).trimmingCharacters(in: .whitespaces)))
    }

    private func bytesRead(_ body: () throws -> Void) throws -> Int {
        let before = try threadReadBytes()
        try body()
        return try threadReadBytes() - before
    }

    @Test(arguments: [["--noreplaygain"], ["-t"], ["-V", "2"]])
    func readingReadsHeadersOnly(options: [String]) throws {
        let path = try Fixtures.makeDirectory() + "/long.mp3"
        try Fixtures.makeMP3(at: path, seconds: 40, lameOptions: options + ["--tt", "Long", "--add-id3v2"])
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 600_000)
        var track: Track?
        let read = try bytesRead { track = try TrackReader.read(path: FilePath(path)!) }
        #expect(read <= 256 * 1024, "read \(read) of \(size) bytes")
        #expect(track?.title == "Long")
        // Behind an ID3v2 tag, the Info/Xing frame is found: exact; without one, an estimate.
        #expect(track?.lengthIsEstimate == (options == ["-t"]))
        if options != ["-t"] { #expect(track?.length == 40_000_000) }
    }

    @Test func infoFrameGivesExactLength() throws {
        let path = try Fixtures.makeDirectory() + "/info.mp3"
        try Fixtures.makeMP3(at: path, seconds: 3)
        let track = try TrackReader.read(path: FilePath(path)!)
        #expect(track.length == 3_000_000)
        #expect(!track.lengthIsEstimate)
    }

    @Test func cbrWithoutInfoFrameIsAnEstimateUntilMeasured() throws {
        let path = try Fixtures.makeDirectory() + "/noinfo.mp3"
        try Fixtures.makeMP3(at: path, seconds: 3, lameOptions: ["-t"])
        let track = try TrackReader.read(path: FilePath(path)!)
        #expect(track.lengthIsEstimate)
        let estimate = try #require(track.length)
        #expect(abs(estimate - 3_000_000) < 200_000)
        let exact = try #require(try TrackReader.measureLength(path: FilePath(path)!))
        // Without the LAME tag nothing is trimmed: whole frames, a little over 3 s.
        #expect(exact >= 3_000_000 && exact < 3_100_000)
    }

    /// An estimate counts the audio's bytes, not the tag's before them: libmpg123's own
    /// estimate took a 12 KB cover for music (a 20.4 s song listed as 23.9 s, where mpd says
    /// 20.4; found side by side with mpd, IntegrationTests.MPDSideBySideTests).
    @Test func anEstimateLeavesTheTagsBytesOut() throws {
        let path = try Fixtures.makeDirectory() + "/covered.mp3"
        try Fixtures.makeMP3(at: path, seconds: 3, lameOptions: ["-t"])
        let tag = Fixtures.id3v2Tag(frames: [("TIT2", ["Covered"]), ("TXXX", ["padding", String(repeating: "x", count: 96_000)])])
        try Fixtures.write(tag + Fixtures.contents(of: path), to: path)
        let track = try TrackReader.read(path: FilePath(path)!)
        #expect(track.title == "Covered")
        #expect(track.lengthIsEstimate)
        let estimate = try #require(track.length)
        #expect(abs(estimate - 3_000_000) < 200_000, "\(estimate) µs for 3 s of music behind a 96 KB tag")
    }

    @Test func aForgedFrameCountIsNotBelieved() throws {
        let dir = try Fixtures.makeDirectory()
        let path = dir + "/forged.mp3"
        try Fixtures.makeMP3(at: path, seconds: 3, lameOptions: ["--noreplaygain"])
        var bytes = try Fixtures.contents(of: path)
        // "Info", flags, then the frame count: claim 4 billion frames (~29 hours) in 70 KB.
        let info = try #require((0..<bytes.count - 4).first { Array(bytes[$0..<$0 + 4]) == Array("Info".utf8) })
        bytes.replaceSubrange(info + 8..<info + 12, with: [0xFF, 0xFF, 0xFF, 0xF0])
        try Fixtures.write(bytes, to: path)
        let track = try TrackReader.read(path: FilePath(path)!)
        #expect(track.lengthIsEstimate)
        let length = try #require(track.length)
        #expect(length < 10_000_000, "an estimate from the size, not the header's \(length) µs")
    }

    @Test func lameReplayGainFillsTrack() throws {
        let path = try Fixtures.makeDirectory() + "/rg.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: ["--replaygain-accurate"])
        let gain = try #require(try TrackReader.read(path: FilePath(path)!).replayGain)
        #expect(gain.trackGain != nil)
        #expect(gain.trackPeak != nil)
    }

    @Test func noReplayGainWhenLameWroteNone() throws {
        let path = try Fixtures.makeDirectory() + "/none.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: ["--noreplaygain"])
        #expect(try TrackReader.read(path: FilePath(path)!).replayGain == nil)
    }

    @Test func txxxFramesWinOverLameAnyCase() throws {
        let path = try Fixtures.makeDirectory() + "/txxx.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: [
            "--replaygain-accurate",
            "--tv", "TXXX=REPLAYGAIN_TRACK_GAIN=-6.00 dB",
            "--tv", "TXXX=replaygain_album_gain=+1.5 dB",
            "--tv", "TXXX=Replaygain_Album_Peak=0.5",
        ])
        let gain = try #require(try TrackReader.read(path: FilePath(path)!).replayGain)
        #expect(gain.trackGain == -6.0)
        #expect(gain.albumGain == 1.5)
        #expect(gain.albumPeak == 0.5)
        // No TXXX track peak: the LAME tag's stands.
        #expect(gain.trackPeak != nil)
    }

    @Test func junkTXXXGainIsIgnored() throws {
        let path = try Fixtures.makeDirectory() + "/junk.mp3"
        try Fixtures.makeMP3(at: path, lameOptions: ["--noreplaygain", "--tv", "TXXX=REPLAYGAIN_TRACK_GAIN=loud"])
        #expect(try TrackReader.read(path: FilePath(path)!).replayGain == nil)
    }
}

import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// The bad M4A/ADTS corpus through the helper: each file refused with a reason that says why
/// (when it is queued and when it is played), or played for what it holds; each in bounded
/// time, and the tag-reading helper survives them all.
@Suite struct M4ABadInputTests {
    static let corpus: Result<M4ABadCorpus, any Error> = Result { try M4ABadCorpus.make(in: try Fixtures.makeDirectory()) }

    @Test func everyFileIsRefusedWithItsReasonOrPlays() throws {
        let corpus = try Self.corpus.get()
        for (name, verdict) in corpus.files {
            let path = FilePath(corpus.path(name))!
            let started = Date()
            switch verdict {
            case .refused(let words):
                let reading = #expect(throws: DecodingError.self, "\(name) was queued") { try TrackReader.read(path: path) }
                #expect(reading?.reason.contains(words) == true, "\(name): \(String(describing: reading))")
                let playing = #expect(throws: DecodingError.self, "\(name) played") {
                    let decoder = try AudioDecoders.open(path: path)
                    _ = try FLACTests.decodeAll(decoder)
                }
                #expect(playing?.reason.contains("FFmpeg helper crashed") != true, "\(name): \(String(describing: playing))")
            case .plays(let seconds):
                let track = try TrackReader.read(path: path)
                let decoder = try AudioDecoders.open(path: path)
                let frames = try FLACTests.decodeAll(decoder).count / decoder.format.channels
                let played = Double(frames) / Double(decoder.format.sampleRate)
                #expect(played >= seconds, "\(name) played \(played) s")
                #expect(track.length != nil)
            }
            let took = Date().timeIntervalSince(started)
            print("bad M4A corpus: \(name): \(verdict) in \(String(format: "%.2f", took)) s")
            // A hang guard, not a speed judgement: four times as long under a sanitizer (one file
            // took 10.17 s under ThreadSanitizer beside three other test runs, ci6).
            #expect(took < Sanitizer.scaled(10), "\(name) took \(took) s")
        }
    }
}

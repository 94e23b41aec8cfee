import FFmpegClient
import FFmpegWire
import Foundation
import SoundAnalysis
@testable import TestSupport

/// Plays an HLS URL straight through a helper, keeping the PCM and the titles with their byte
/// offsets, until a title arrives and a few seconds more (for the tone after it).
struct HelperHLSTitles {
    var format: WireFormat
    var opened: Double
    var titles: [WireTitle] = []
    var pcm: [Int16] = []

    static func play(_ url: String, until title: String, seconds: Double) throws -> HelperHLSTitles {
        let channel = try HelperChannel()
        defer { channel.close() }
        let start = Date()
        try channel.send(WireURLRequest(url: url, caFile: nil, userAgent: "aubade-tests").frame)
        guard case .format(let format) = try channel.receive(timeout: 45) else { throw HelperError.broken("not a format") }
        var run = HelperHLSTitles(format: format, opened: Date().timeIntervalSince(start))
        var after: Int?
        while Date().timeIntervalSince(start) < seconds + 20 {
            try channel.send(WireFrame(.read) { $0.u32(UInt32(64 * 1024)) })
            switch try channel.receive(timeout: 20) {
            case .title(let found): run.titles.append(found)
            case .pcm(let bytes):
                bytes.withUnsafeBytes { run.pcm += $0.bindMemory(to: Int16.self) }
                // Wait for what is owed of this read (titles come before their PCM).
            default: break
            }
            if after == nil, run.titles.contains(where: { $0.title == title }) { after = run.pcm.count }
            if let after, run.pcm.count > after + 3 * format.sampleRate * format.channels { break }
        }
        return run
    }

    /// The frame where the left channel's tone goes from `from` Hz to `to` Hz, nil when there is
    /// none: TestSupport's strict detector, which wants a run of each tone's periods on either
    /// side. (This helper once took the first short period for the change, and a CI run under
    /// ThreadSanitizer judged a title 7 s late from a glitch 7 s before the real change.)
    func toneChange(from: Int, to: Int) -> Int64? {
        let channels = max(format.channels, 1), rate = Double(format.sampleRate)
        let left = ToneAnalysis(samples: stride(from: 0, to: pcm.count, by: channels).map { Double(pcm[$0]) })
        let changes = left.toneChanges(in: 0..<left.samples.count, fromHalfPeriod: rate / Double(2 * from),
                                       toHalfPeriod: rate / Double(2 * to))
        return changes.first.map { Int64($0.rounded()) }
    }
}

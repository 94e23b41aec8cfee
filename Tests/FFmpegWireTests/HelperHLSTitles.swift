import FFmpegClient
import FFmpegWire
import Foundation
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

    /// The frame where the left channel's tone goes from `from` Hz to `to` Hz (by the distance
    /// between rising zero crossings), nil when there is none.
    func toneChange(from: Int, to: Int) -> Int64? {
        let channels = format.channels, rate = Double(format.sampleRate)
        var last: Int?
        let middle = (rate / Double(from) + rate / Double(to)) / 2
        for frame in 1..<(pcm.count / channels) {
            let previous = pcm[(frame - 1) * channels], now = pcm[frame * channels]
            guard previous < 0, now >= 0 else { continue }
            if let last, Double(frame - last) < middle, frame - last > 10 {
                // The first short period: the change lies within it.
                return Int64(last)
            }
            last = frame
        }
        return nil
    }
}

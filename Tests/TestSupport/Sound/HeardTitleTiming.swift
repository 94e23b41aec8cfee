import Foundation
import SoundAnalysis
import XCTest

/// How far from its first sample heard a title was published: the PropertiesChanged(Metadata)
/// carrying it against the first sample of the new tone in a `TimedRecording` (as the ICY title
/// timing tests measure).
enum HeardTitleTiming {
    /// Seconds from the first `to` Hz sample heard to the signal with `title` (negative: early).
    static func offset(of title: String, signals: SignalMonitor, recorder: TimedRecording,
                       from: Int = 440, to: Int = 660) throws -> Double {
        guard let published = signals.waitForMessage(timeout: 2, where: {
            $0.changedInterface == Bus.playerInterface && $0.changedProperties["Metadata"]?.dictionary?["xesam:title"] == .string(title)
        }), let publishedAt = published.time else {
            throw Failure(description: "no PropertiesChanged(Metadata) with \(title)")
        }
        _ = recorder.waitForSeconds(recorder.seconds + 1.5, timeout: 10)
        let audio = ToneAnalysis(recorder.stop())
        guard let sounding = audio.soundingRange() else { throw Failure(description: "the recording is silent") }
        let rate = Double(ToneAnalysis.rate)
        let changes = audio.toneChanges(in: sounding.lowerBound..<sounding.upperBound,
                                        fromHalfPeriod: rate / Double(2 * from), toHalfPeriod: rate / Double(2 * to))
        guard let change = changes.first, let arrived = recorder.arrival(ofFrame: Int(change)) else {
            throw Failure(description: "no change from \(from) Hz to \(to) Hz heard (\(changes))")
        }
        // The step's arrival, less the capture latency: when it was heard.
        let heardAt = arrived.timeIntervalSince1970 - Double(TimedRecording.latencyMilliseconds) / 1000
        return publishedAt - heardAt
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }
}

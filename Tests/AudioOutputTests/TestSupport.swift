import Foundation
import Handoff
import AudioOutput
import PlayerCore
@testable import TestSupport

/// A sine tone of a fixed number of frames, as a `PCMSource`.
func sineSource(seconds: Double, format: PCMFormat = PCMFormat(sampleRate: 44100, channels: 2),
                frequency: Double = 440, amplitude: Double = 8000) -> PCMSource {
    final class Generator {
        var remaining: Int
        var frame = 0
        init(frames: Int) { remaining = frames }
    }
    let generator = Generator(frames: Int(seconds * Double(format.sampleRate)))
    return PCMSource(format: format) { buffer in
        let frames = min(buffer.count / format.bytesPerFrame, generator.remaining)
        var offset = 0
        for _ in 0..<frames {
            let t = Double(generator.frame) / Double(format.sampleRate)
            let sample = Int16(amplitude * sin(2 * .pi * frequency * t))
            for _ in 0..<format.channels {
                buffer.storeBytes(of: sample, toByteOffset: offset, as: Int16.self)
                offset += 2
            }
            generator.frame += 1
        }
        generator.remaining -= frames
        return offset
    }
}

/// A source that throws on its first read.
struct BrokenSource: Error, CustomStringConvertible { var description: String { "broken frame" } }

/// Events with their arrival time, waitable from the test thread.
final class EventLog: Sendable {
    private let entries = LockedState<[(time: ContinuousClock.Instant, event: OutputEvent)]>([])
    /// The sound-server connection's `changed` reports (its observer, apart from playback).
    private let readings = LockedState<[(time: ContinuousClock.Instant, facts: SoundServerFacts)]>([])

    func append(_ event: OutputEvent) {
        let now = ContinuousClock.now
        entries.withLock { $0.append((now, event)) }
    }

    /// The connection's facts are kept; its `connected`/`lost` are the output's
    /// `serverConnected`/`serverLost` too, already logged.
    func append(_ event: SoundServerEvent) {
        guard case .changed(let facts) = event else { return }
        let now = ContinuousClock.now
        readings.withLock { $0.append((now, facts)) }
    }

    var events: [OutputEvent] { entries.withLock { $0.map(\.event) } }

    /// The events about our playback only (not the server's connection, devices or policy),
    /// which arrive in an order the tests can check.
    var playbackEvents: [OutputEvent] { events.filter { !$0.isAboutServer } }

    /// Every reading of the sound server so far, in order.
    var facts: [SoundServerFacts] {
        readings.withLock { $0.map(\.facts) }
    }

    /// Waits for a reading matching `match` (that arrived at `since` or later);
    /// returns it and when it arrived.
    func waitForFacts(since: ContinuousClock.Instant? = nil, timeout: Double = 5,
                      where match: (SoundServerFacts) -> Bool)
        -> (facts: SoundServerFacts, time: ContinuousClock.Instant)? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            let hit = readings.withLock { readings -> (SoundServerFacts, ContinuousClock.Instant)? in
                for entry in readings where since.map({ entry.time >= $0 }) ?? true && match(entry.facts) {
                    return (entry.facts, entry.time)
                }
                return nil
            }
            if let hit { return hit }
            usleep(1_000)
        }
        return nil
    }

    func time(of event: OutputEvent) -> ContinuousClock.Instant? {
        entries.withLock { $0.first { $0.event == event }?.time }
    }

    /// Waits until `event` was logged; returns when it arrived.
    @discardableResult
    func wait(for event: OutputEvent, timeout: Double = 5) -> ContinuousClock.Instant? {
        wait(timeout: timeout) { $0 == event }
    }

    @discardableResult
    func wait(timeout: Double = 5, where match: (OutputEvent) -> Bool) -> ContinuousClock.Instant? {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < deadline {
            if let hit = entries.withLock({ $0.first { match($0.event) }?.time }) { return hit }
            usleep(5_000)
        }
        return nil
    }
}

extension OutputEvent {
    /// About the server (connection, devices, its policy's requests) rather than our playback.
    var isAboutServer: Bool {
        switch self {
        case .serverConnected, .serverLost, .corkRequested, .uncorkRequested: true
        default: false
        }
    }
}


func peak(_ samples: [Int16]) -> Int {
    samples.reduce(0) { max($0, abs(Int($1))) }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

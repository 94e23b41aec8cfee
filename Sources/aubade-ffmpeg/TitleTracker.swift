import FFmpegKit
import FFmpegWire

/// A station's titles that travel inside its audio, placed at the sample they start with:
/// the Vorbis comments of each new chained Ogg stream (FFmpeg flags the first packet of the
/// new stream with them) and the timed ID3 frames of an HLS stream (`TimedID3`).
/// (ICY titles are the daemon's: they never reach the helper.)
final class TitleTracker {
    /// Set by the session as it decodes: where the next decoded sample will go.
    var producedBytes: Int64 = 0
    var producedFrames: Int64 = 0
    private let audio: MediaStream
    private let timedMetadataStreams: Set<Int>
    private var pending: [WireTitle] = []
    private var last: String?

    /// Titles waiting to be sent: a stream that sends a new one with every packet cannot grow
    /// the helper's memory; the newest wins.
    static let pendingLimit = 16

    init(audio: MediaStream, timedMetadata: Set<Int>) {
        self.audio = audio
        self.timedMetadataStreams = timedMetadata
    }

    func take() -> [WireTitle] {
        defer { pending = [] }
        return pending
    }

    /// A chained Ogg stream's tags: its title starts with the packet being decoded. Once the
    /// demuxer has attached tags to a packet, only such are believed (see DecodeSession).
    func chainedStreamTags(_ tags: MetadataPairs, fromPacket: Bool) {
        if fromPacket { packetsCarryTags = true } else if packetsCarryTags { return }
        add(tags, at: producedBytes)
    }
    private var packetsCarryTags = false

    /// A timed ID3 packet of an HLS stream: its title starts at the audio sample of its
    /// timestamp, which the demuxer may hand over before that audio (`audioFrame` places it).
    func timedMetadata(_ packet: Packet, timeBase: (numerator: Int32, denominator: Int32)) {
        guard timedMetadataStreams.contains(packet.streamIndex), packet.size <= TimedID3.sizeLimit else { return }
        let tags = TimedID3.tags(in: packet.bytes(limit: TimedID3.sizeLimit))
        guard !tags.isEmpty else { return }
        let seconds = packet.presentationTime.map { Double($0) * Double(timeBase.numerator) / Double(max(timeBase.denominator, 1)) }
        guard let seconds else { return add(tags, at: producedBytes) }
        timed.append((seconds, tags))
        if timed.count > Self.pendingLimit { timed.removeFirst(timed.count - Self.pendingLimit) }
    }
    private var timed: [(seconds: Double, tags: MetadataPairs)] = []

    /// Where packed-audio segments' leading tags come from (`HLSPolicy`), asked as packets come.
    var segmentTags: (() -> [SegmentTag])?

    /// The leading tags of the segments opened since the last call: each title starts at its
    /// segment's timestamp (placed by `audioFrame`), or where decoding is when it has none.
    func collectSegmentTags() {
        guard let found = segmentTags?(), !found.isEmpty else { return }
        for item in found {
            guard let seconds = item.seconds else {
                add(item.tags, at: producedBytes)
                continue
            }
            timed.append((seconds, item.tags))
        }
        if timed.count > Self.pendingLimit { timed.removeFirst(timed.count - Self.pendingLimit) }
    }

    /// A decoded audio frame starting at `seconds` of the stream's timeline, about to be
    /// appended at byte `startByte` of the PCM: the timed titles it reaches are placed in it.
    func audioFrame(seconds: Double?, startByte: Int64, frames: Int, rate: Int, bytesPerFrame: Int) {
        guard !timed.isEmpty else { return }
        guard let seconds else {
            for item in timed { add(item.tags, at: startByte) }
            timed = []
            return
        }
        let end = seconds + Double(frames) / Double(max(rate, 1))
        while let first = timed.first, first.seconds < end {
            timed.removeFirst()
            let into = max(0, min(Int64(frames), Int64(((first.seconds - seconds) * Double(rate)).rounded())))
            add(first.tags, at: startByte + into * Int64(bytesPerFrame))
        }
        // A title far behind the audio (a discontinuity reset the clock): now.
        if let first = timed.first, first.seconds > end + 30 || first.seconds < seconds - 30 {
            timed.removeFirst()
            add(first.tags, at: startByte)
        }
    }

    /// The values as FFmpeg last gave them: a replaced Ogg stream's new comments are appended
    /// to the old ones ("First Song;Second Song"), and only what was added is new.
    private var previousRaw: [String: String] = [:]

    private func add(_ tags: MetadataPairs, at offset: Int64) {
        func value(_ key: String) -> String {
            guard let raw = tags.first(where: { $0.key.lowercased() == key })?.value else { return "" }
            defer { previousRaw[key] = raw }
            if let old = previousRaw[key], raw.count > old.count + 1, raw.hasPrefix(old + ";") {
                return String(raw.dropFirst(old.count + 1)).trimmingCharacters()
            }
            return raw.trimmingCharacters()
        }
        let title = value("title"), artist = value("artist")
        guard !title.isEmpty else { return }
        let text = artist.isEmpty ? title : "\(artist) - \(title)"
        guard text != last else { return }
        last = text
        pending.append(WireTitle(byteOffset: offset, text: text, artist: artist, title: title))
        if pending.count > Self.pendingLimit { pending.removeFirst(pending.count - Self.pendingLimit) }
    }
}

extension String {
    func trimmingCharacters() -> String {
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace || first.isNewline { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace || last.isNewline { slice.removeLast() }
        return String(slice)
    }
}

import AudioOutput
import PlayerCore

/// A station's titles placed at bytes of its PCM, for the sources that decode through the
/// FFmpeg helper: at most one per `minimumSpacing` seconds of audio (a hostile station cannot
/// flood the bus; the newest waiting title wins), never the same title twice in a row.
struct TitleMarks {
    private var waiting: (title: LiveTitle, offset: Int64)?
    private var last: LiveTitle?
    private var lastOffset: Int64?
    private var ready: [SourceMark] = []

    static let minimumSpacing = 1.0

    /// A title that starts at `offset` of the PCM.
    mutating func add(_ title: LiveTitle, at offset: Int64, format: PCMFormat?) {
        guard title != last else { return }
        last = title
        waiting = (title, offset)
        release(upTo: offset, format: format)
    }

    /// Releases the waiting title once enough audio separates it from the previous one.
    mutating func release(upTo produced: Int64, format: PCMFormat?) {
        guard let pending = waiting else { return }
        let spacing = Int64(format?.bytes(seconds: Self.minimumSpacing) ?? 0)
        let offset = max(pending.offset, (lastOffset ?? Int64.min / 2) + spacing)
        guard offset <= max(produced, pending.offset) else { return }
        ready.append(SourceMark(byteOffset: offset, title: pending.title))
        lastOffset = offset
        waiting = nil
    }

    mutating func take() -> [SourceMark] {
        defer { ready = [] }
        return ready
    }
}

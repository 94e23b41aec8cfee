import PlayerCore

/// The logical streams ("links") of a chained Ogg file one after the other, each with its own
/// format and exact frame count: maps a time to the frame to seek to, and gives the length.
///
/// An ordinary file has one link. A chained one (a recorded radio stream, files glued with
/// `cat`) may change rate or channels from one link to the next, so a time is not simply
/// frames / rate.
struct OggLinks {
    struct Link: Equatable {
        var format: PCMFormat
        var frames: Int64
    }

    /// At most this many links are told apart; a hostile file of more is treated as if the
    /// rest had the last one's format (a seek there lands a little off, nothing worse).
    static let linkLimit = 4_096

    let links: [Link]

    init(_ links: [Link]) {
        self.links = Array(links.prefix(Self.linkLimit))
    }

    /// Frames in all links together (the library's own total when the links were capped).
    var totalFrames: Int64 { links.reduce(0) { $0.saturatingAdding($1.frames) } }

    /// The exact duration of all links.
    var duration: Microseconds {
        links.reduce(0) { $0.saturatingAdding($1.format.duration(ofFrames: $1.frames)) }
    }

    /// The frame (counted from the start of the file) at `time`, clamped to the file.
    func frame(at time: Microseconds) -> Int64 {
        var remaining = max(0, time)
        var base: Int64 = 0
        for (index, link) in links.enumerated() {
            let length = link.format.duration(ofFrames: link.frames)
            if remaining < length || index == links.count - 1 {
                return base.saturatingAdding(min(link.frames, link.format.frames(in: remaining)))
            }
            remaining -= length
            base = base.saturatingAdding(link.frames)
        }
        return 0
    }
}

public import PlayerCore

/// Where PCM comes from (the app wraps its decoder in one: an MP3 file, a radio stream).
///
/// `read` is called only on the track's decoder queue (`DecodeAhead`), never concurrently,
/// which is why the type may be `@unchecked Sendable` while wrapping a non-thread-safe decoder:
/// the app hands it over and must not touch the decoder itself afterwards.
public struct PCMSource: @unchecked Sendable {
    public var format: PCMFormat
    /// Fills the buffer with whole frames; returns bytes written; 0 = end of track.
    /// Throws on a decode error (reported as `.failed`, then treated as the end of the track),
    /// or `SourceStarved` when its input has not arrived yet (a network stream).
    public var read: (UnsafeMutableRawBufferPointer) throws -> Int
    /// For a source that can starve: given once, before the first read, the function to call
    /// (from any thread) when input it was waiting for has arrived.
    public var setInputWaker: ((@escaping @Sendable () -> Void) -> Void)?
    /// Marks reached since the last call, placed at byte offsets of this source's PCM (a
    /// station's new title, at the first sample of the song it names). Called after `read`.
    public var takeMarks: (() -> [SourceMark])?

    public init(format: PCMFormat, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int,
                setInputWaker: ((@escaping @Sendable () -> Void) -> Void)? = nil,
                takeMarks: (() -> [SourceMark])? = nil) {
        self.format = format
        self.read = read
        self.setInputWaker = setInputWaker
        self.takeMarks = takeMarks
    }
}

/// Thrown by `PCMSource.read` when there is nothing to decode yet — not an end, not a failure:
/// the source calls its input waker when there is.
public struct SourceStarved: Error, Sendable {
    public init() {}
}

/// Something that happens at a point of a source's audio, announced when that point is heard.
public struct SourceMark: Sendable, Equatable {
    /// Offset in the source's PCM output, in bytes (whole frames).
    public var byteOffset: Int64
    public var title: LiveTitle

    public init(byteOffset: Int64, title: LiveTitle) {
        self.byteOffset = byteOffset
        self.title = title
    }
}

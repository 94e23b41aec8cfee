/// Where PCM comes from (the app wraps its MP3 decoder in one).
///
/// `read` is called only on the output's mainloop thread, never concurrently, which is why the
/// type may be `@unchecked Sendable` while wrapping a non-thread-safe decoder: the app hands it
/// over in `play`/`enqueue`/`restart` and must not touch the decoder itself afterwards.
public struct PCMSource: @unchecked Sendable {
    public var format: PCMFormat
    /// Fills the buffer with whole frames; returns bytes written; 0 = end of track.
    /// Throws on a decode error (reported as `.failed`, then treated as the end of the track).
    public var read: (UnsafeMutableRawBufferPointer) throws -> Int

    public init(format: PCMFormat, read: @escaping (UnsafeMutableRawBufferPointer) throws -> Int) {
        self.format = format
        self.read = read
    }
}

/// Where a `MediaInput` reads its bytes from when they do not come from a URL: a file
/// descriptor, or bytes the daemon hands over piece by piece.
///
/// Called from FFmpeg's read and seek callbacks, on the thread that drives the `MediaInput`.
public protocol ByteSource: AnyObject {
    /// Fills `buffer` with up to its size; returns the count, 0 at the end, or nil on an error.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// Moves to byte `offset` from the start; false when it cannot (a stream).
    func seek(to offset: Int64) -> Bool
    /// The size in bytes, when known (a file).
    var size: Int64? { get }
    /// Whether `seek` can work at all (FFmpeg then reads a file's end for its index).
    var isSeekable: Bool { get }
}

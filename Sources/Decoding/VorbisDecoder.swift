import PlayerCore

/// Decodes one Vorbis file to PCM. (Skeleton: filled in by the Vorbis adapter.)
public final class VorbisDecoder: AudioDecoder, @unchecked Sendable {
    public let path: FilePath
    public private(set) var format = PCMFormat(sampleRate: 44_100, channels: 2)

    public init(path: FilePath) throws(DecodingError) {
        self.path = path
        throw DecodingError(path: path, reason: "Vorbis is not supported yet")
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws(DecodingError) -> Int { 0 }

    public func seek(to position: Microseconds) throws(DecodingError) {}
}

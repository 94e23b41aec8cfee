import Mpg123Kit
import PlayerCore

extension Mpg123Handle {
    /// A handle set up the way Aubade decodes: gapless, silent, signed 16-bit output,
    /// with `path` open. Errors come back as `DecodingError`s with user-facing reasons.
    /// `randomAccess`: only headers and tags will be read (no kernel readahead).
    static func opened(path: FilePath, flags: Mpg123Flags = [], randomAccess: Bool = false) throws(DecodingError) -> Mpg123Handle {
        let handle: Mpg123Handle
        do {
            handle = try Mpg123Handle()
            try handle.addFlags(flags.union([.gapless, .quiet]))
            try handle.forceSigned16Output()
        } catch {
            throw DecodingError(path: path, decoding: error)
        }
        do {
            try path.withCString { (cPath) throws(Mpg123Error) in try handle.open(path: cPath, randomAccess: randomAccess) }
        } catch {
            throw DecodingError(path: path, opening: error)
        }
        return handle
    }

    /// The output format, failing as "not an MP3 file" when no frame header can be found.
    func probedFormat(path: FilePath) throws(DecodingError) -> PCMFormat {
        let format: Mpg123OutputFormat
        do {
            format = try outputFormat()
        } catch where error.isEndOfStream {
            // The end came before any frame header: an empty or tag-only file, or junk that
            // libmpg123 skipped to the end looking for a frame.
            throw DecodingError(path: path, reason: "not an MP3 file: no audio frames")
        } catch {
            throw DecodingError(path: path, opening: error)
        }
        guard format.bytesPerSample == PCMFormat.bytesPerSample, format.channels > 0 else {
            throw DecodingError(path: path, reason: "unexpected output format \(format)")
        }
        return PCMFormat(sampleRate: format.sampleRate, channels: format.channels)
    }
}

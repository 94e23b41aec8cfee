import Decoding
import Glibc
import PlayerCore

/// `aubade decode FILE…`: decodes each file with the decoder the daemon would use (chosen by
/// its content) and writes the PCM to standard output — raw signed 16-bit, native endian,
/// interleaved, as `flac -d -c` does — with one line per file on standard error: its format,
/// rate, channels and decoded length. To check that a file plays (`> /dev/null`), or to feed
/// another tool. Exit 1 if any file fails; 64 for usage (no FILE, or output to a terminal).
enum DecodeVerb {
    static func run(_ arguments: [String]) -> Int32 {
        guard !arguments.isEmpty else {
            CommandLineInterface.printError("aubade decode: no FILE given")
            return 64
        }
        guard isatty(STDOUT_FILENO) == 0 else {
            CommandLineInterface.printError("aubade decode: standard output is a terminal; redirect it (e.g. > /dev/null)")
            return 64
        }
        var status: Int32 = 0
        for argument in arguments {
            let path = RawArguments.path(for: argument)
            do throws(DecodingError) {
                let summary = try decode(path)
                CommandLineInterface.printError("\(path.displayString): \(summary)")
            } catch {
                CommandLineInterface.printError("aubade decode: \(error.description)")
                status = 1
            }
        }
        return status
    }

    /// Decodes `path` to standard output; "FLAC, 44100 Hz, 2 channels, 240.000 s".
    private static func decode(_ path: FilePath) throws(DecodingError) -> String {
        let kind = try AudioFileKind.sniff(path: path)
        let decoder = try AudioDecoders.open(path: path)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { buffer.deallocate() }
        var seconds = 0.0
        while true {
            let count = try decoder.read(into: buffer)
            if count == 0 { break }
            // Per read: a chained Ogg file may change its rate midway.
            seconds += Double(count / decoder.format.bytesPerFrame) / Double(decoder.format.sampleRate)
            guard writeAll(UnsafeRawBufferPointer(rebasing: buffer[0..<count])) else {
                throw DecodingError(path: path, reason: "cannot write the output: \(String(cString: strerror(errno)))")
            }
        }
        let format = decoder.format
        let milliseconds = Int((seconds * 1000).rounded())
        return "\(kind.displayName), \(format.sampleRate) Hz, \(format.channels) channel\(format.channels == 1 ? "" : "s"), "
            + "\(milliseconds / 1000).\(String(milliseconds % 1000 + 1000).dropFirst()) s"
    }

    private static func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }
}

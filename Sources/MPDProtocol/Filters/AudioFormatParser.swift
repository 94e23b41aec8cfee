import MusicDatabase

/// `SAMPLERATE:BITS:CHANNELS` as mpd's `ParseAudioFormat` reads it, for `(AudioFormat == …)` and,
/// as a mask whose parts may be `*`, `(AudioFormat =~ …)`. Bits are 8, 16, 24 (`24_3` too), 32,
/// `f` (float) or `dsd`; `dsd64:2` names a DSD rate and channels.
///
/// Numbers are read as C's `strtoul` reads them and checked as mpd checks them, through its
/// 32-bit `unsigned` parameters: a sample rate of 4294967297 is 1 and valid, and the messages
/// print what mpd prints (the whole unsigned long for rates and formats, 32 bits of it for
/// channels).
enum AudioFormatParser {
    /// The pattern, or nil for a DSD format: Aubade plays no DSD, so that filter matches nothing.
    static func parse(_ text: String, isMask: Bool) throws(MPDError) -> AudioFormatPattern? {
        let bytes = Array(text.utf8)
        var position = 0

        func fail(_ message: String) -> MPDError { MPDError(.argument, message) }
        func rest() -> String { String(decoding: bytes[min(position, bytes.count)...], as: UTF8.self) }
        func extraData() -> MPDError { MPDError(.argument, String(cString: "Extra data after channel count: \(rest())", truncatedTo: 1023)) }
        func isWildcard() -> Bool { isMask && position < bytes.count && bytes[position] == UInt8(ascii: "*") }

        func channels() throws(MPDError) -> Int? {
            if isWildcard() {
                position += 1
                return nil
            }
            let scan = CNumberScanner.unsignedLong(bytes, from: position)
            guard scan.end > position else { throw fail("Failed to parse the channel count") }
            let value = UInt32(truncatingIfNeeded: scan.value)
            guard (1...8).contains(value) else { throw fail("Invalid channel count: \(value)") }
            position = scan.end
            return Int(value)
        }

        // "dsd64:2": a DSD rate (an even multiple of 44100/8 between 32 and 4096) and channels.
        if bytes.starts(with: "dsd".utf8) {
            let scan = CNumberScanner.unsignedLong(bytes, from: 3)
            if scan.end > 3, scan.end < bytes.count, bytes[scan.end] == UInt8(ascii: ":"),
               (32...4096).contains(scan.value), scan.value % 2 == 0 {
                position = scan.end + 1
                _ = try channels()
                guard position >= bytes.count else { throw extraData() }
                return nil
            }
        }

        let sampleRate: Int?
        if isWildcard() {
            position += 1
            sampleRate = nil
        } else {
            let scan = CNumberScanner.unsignedLong(bytes, from: position)
            guard scan.end > position else { throw fail("Failed to parse the sample rate") }
            let truncated = UInt32(truncatingIfNeeded: scan.value)
            guard truncated > 0, truncated < 1 << 30 else { throw fail("Invalid sample rate: \(scan.value)") }
            position = scan.end
            sampleRate = Int(truncated)
        }
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("Sample format missing") }
        position += 1

        // Bits per sample: nil is "any" (a mask's `*`), .some(nil) is float.
        var bits: Int??
        var isDSD = false
        if isWildcard() {
            position += 1
            bits = nil
        } else if position < bytes.count, bytes[position] == UInt8(ascii: "f") {
            position += 1
            bits = .some(nil)
        } else if bytes[position...].starts(with: "dsd".utf8) {
            position += 3
            isDSD = true
        } else {
            let scan = CNumberScanner.unsignedLong(bytes, from: position)
            guard scan.end > position else { throw fail("Failed to parse the sample format") }
            position = scan.end
            switch scan.value {
            case 8, 16, 32:
                bits = .some(Int(scan.value))
            case 24:
                if bytes[position...].starts(with: "_3".utf8) { position += 2 }
                bits = .some(24)
            default:
                throw fail("Invalid sample format: \(scan.value)")
            }
        }
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw fail("Channel count missing") }
        position += 1

        let channelCount = try channels()
        guard position >= bytes.count else { throw extraData() }
        if isDSD { return nil }
        return AudioFormatPattern(sampleRate: sampleRate, bitsPerSample: bits, channels: channelCount, isMask: isMask)
    }
}

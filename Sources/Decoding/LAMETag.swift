import PlayerCore

/// LAME's extension of the Xing/Info frame (36 bytes after the Xing fields): the encoder
/// version, the peak amplitude, two ReplayGain fields, and the encoder delay and padding that
/// make gapless playback exact. ffmpeg writes the same layout ("Lavc…").
enum LAMETag {
    /// Reads the tag at `reader`'s position into `header`; leaves it as it is when the bytes
    /// are missing or are no tag (an empty encoder string).
    static func parse(from reader: inout ByteReader, into header: inout MP3InfoHeader) {
        guard let version = reader.bytes(9), let first = version.first,
              (0x20...0x7E).contains(first),
              reader.skip(2), // tag revision + VBR method, lowpass
              let peakBits = reader.uint32(), let radio = reader.uint16(), let audiophile = reader.uint16(),
              reader.skip(2), // encoding flags + ATH type, bit rate
              let gapless = reader.bytes(3) else { return }
        let g = Array(gapless)
        header.encoderDelay = Int(g[0]) << 4 | Int(g[1] >> 4)
        header.encoderPadding = Int(g[1] & 0x0F) << 8 | Int(g[2])

        var gain = ReplayGainTags()
        for field in [radio, audiophile] {
            guard let (name, value) = replayGainField(field) else { continue }
            if name == 1 { gain.trackGain = value } else if name == 2 { gain.albumGain = value }
        }
        // LAME 3.94+ stores the peak as a 9.23 fixed-point number; 0 means "not computed".
        if peakBits != 0 {
            let peak = Double(peakBits) / Double(1 << 23)
            if ReplayGainTags.plausiblePeak.contains(peak) { gain.trackPeak = peak }
        }
        if !gain.isEmpty { header.replayGain = gain }
    }

    /// One 16-bit field: name code (3 bits: 1 radio = track, 2 audiophile = album),
    /// originator (3 bits; 0 = not set), sign bit, and the gain in tenths of a dB (9 bits).
    static func replayGainField(_ field: UInt16) -> (name: Int, gain: Double)? {
        let name = Int(field >> 13), originator = Int((field >> 10) & 0x7)
        guard name == 1 || name == 2, originator != 0 else { return nil }
        let magnitude = Double(field & 0x1FF) / 10
        let value = field & 0x200 != 0 ? -magnitude : magnitude
        guard ReplayGainTags.plausibleGain.contains(value) else { return nil }
        return (name, value)
    }
}

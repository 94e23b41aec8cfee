/// The 4-byte header of an MPEG-1/2/2.5 Layer III audio frame, as far as finding the
/// information frame needs it. Any other layer, a reserved or free-format field is no header.
struct MPEGFrameHeader: Equatable {
    /// 1 (MPEG-1), 2 (MPEG-2) or 25 (MPEG-2.5).
    var version: Int
    var bitRate: Int
    var sampleRate: Int
    var isMono: Bool
    /// The whole frame in bytes, header included.
    var frameLength: Int

    private static let bitRatesV1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320]
    private static let bitRatesV2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160]
    private static let sampleRatesV1 = [44100, 48000, 32000]

    init?(_ bytes: ArraySlice<UInt8>) {
        guard bytes.count >= 4 else { return nil }
        let b = Array(bytes.prefix(4))
        guard b[0] == 0xFF, b[1] & 0xE0 == 0xE0 else { return nil }
        let versionBits = (b[1] >> 3) & 0x3, layerBits = (b[1] >> 1) & 0x3
        guard versionBits != 1, layerBits == 1 else { return nil }
        version = versionBits == 3 ? 1 : versionBits == 2 ? 2 : 25
        let bitRateIndex = Int(b[2] >> 4), rateIndex = Int((b[2] >> 2) & 0x3)
        guard bitRateIndex != 0, bitRateIndex != 15, rateIndex != 3 else { return nil }
        bitRate = (version == 1 ? Self.bitRatesV1 : Self.bitRatesV2)[bitRateIndex] * 1000
        sampleRate = Self.sampleRatesV1[rateIndex] / (version == 1 ? 1 : version == 2 ? 2 : 4)
        let padding = Int((b[2] >> 1) & 0x1)
        isMono = (b[3] >> 6) == 3
        frameLength = (version == 1 ? 144 : 72) * bitRate / sampleRate + padding
    }

    /// PCM samples per channel in the frame.
    var samplesPerFrame: Int { version == 1 ? 1152 : 576 }

    /// Bytes of side information after the header (and its CRC, if any).
    var sideInfoLength: Int {
        switch (version == 1, isMono) {
        case (true, true): 17
        case (true, false): 32
        case (false, true): 9
        case (false, false): 17
        }
    }
}

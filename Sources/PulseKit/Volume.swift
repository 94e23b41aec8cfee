internal import CPulse

/// `pa_volume_t`: a software volume, linear in PulseAudio's units (cubic in amplitude).
/// `Volume.norm` (0x10000) is 100 %, `Volume.muted` is 0.
public struct Volume: RawRepresentable, Sendable, Hashable, Comparable {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let norm = Volume(rawValue: aubade_pa_volume_norm)
    public static let muted = Volume(rawValue: aubade_pa_volume_muted)
    /// The largest valid volume (`PA_VOLUME_MAX`).
    public static let max = Volume(rawValue: aubade_pa_volume_max)

    /// `fraction * norm`, clamped to `0...max` (so 0.5 is what pactl shows as 50 %).
    public init(fractionOfNorm fraction: Double) {
        guard fraction.isFinite, fraction > 0 else { self = .muted; return }
        let raw = (fraction * Double(aubade_pa_volume_norm)).rounded()
        self.rawValue = raw >= Double(aubade_pa_volume_max) ? aubade_pa_volume_max : UInt32(raw)
    }

    /// The volume as a fraction of `norm` (1.0 = 100 %).
    public var fractionOfNorm: Double { Double(rawValue) / Double(aubade_pa_volume_norm) }

    public static func < (lhs: Volume, rhs: Volume) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// `pa_cvolume`: one volume per channel.
public struct ChannelVolumes: Sendable, Hashable {
    public var values: [Volume]

    public init(_ values: [Volume]) { self.values = values }

    /// The same volume on `channels` channels.
    public init(channels: Int, volume: Volume) {
        values = Array(repeating: volume, count: channels)
    }

    /// The mean of the channels (`pa_cvolume_avg`); muted when there are none.
    public var average: Volume {
        guard !values.isEmpty else { return .muted }
        let sum = values.reduce(UInt64(0)) { $0 + UInt64($1.rawValue) }
        return Volume(rawValue: UInt32(sum / UInt64(values.count)))
    }

    init(_ c: pa_cvolume) {
        var copy = c
        let count = Int(min(c.channels, UInt8(PA_CHANNELS_MAX)))
        values = withUnsafeBytes(of: &copy.values) { raw in
            raw.bindMemory(to: UInt32.self).prefix(count).map(Volume.init(rawValue:))
        }
    }

    /// The C struct; channels beyond `PA_CHANNELS_MAX` are dropped.
    var cValue: pa_cvolume {
        var c = pa_cvolume()
        let count = min(values.count, Int(PA_CHANNELS_MAX))
        c.channels = UInt8(count)
        withUnsafeMutableBytes(of: &c.values) { raw in
            let slots = raw.bindMemory(to: UInt32.self)
            for i in 0..<count { slots[i] = values[i].rawValue }
        }
        return c
    }
}

/// Bluetooth card profiles as the sound servers name them, classified in one place (the route's
/// port type and the switch to A2DP both ask here, so they cannot disagree).
///
/// - PulseAudio: `a2dp_sink` (15+: also `a2dp_sink_sbc`, `a2dp_sink_aac`, `a2dp_sink_ldac`…),
///   `headset_head_unit` (HSP, or HFP through oFono), `handsfree_head_unit` (native HFP, 15+),
///   `headset_audio_gateway` / `handsfree_audio_gateway` (the other side is a phone),
///   `a2dp_source`, `off`.
/// - PipeWire: `a2dp-sink` (and `a2dp-sink-sbc`, `a2dp-sink-aac`, `a2dp-sink-sbc_xq`…),
///   `headset-head-unit`, `headset-head-unit-cvsd`, `headset-head-unit-msbc`, `audio-gateway`,
///   `bap-sink`, `off`; early 0.3 releases said `hsp_hs`, `hfp_hf`, `hsp_ag`, `hfp_ag`.
///
/// Names are compared lower-cased with `_` read as `-`, so both spellings are one.
public enum BluetoothProfile: Sendable {
    /// A call profile (HSP/HFP, either side): a narrow-band link for a phone call. Music played
    /// through it sounds like a phone.
    public static func isCall(_ profile: String) -> Bool {
        let name = normalized(profile)
        return name.contains("head-unit") || name.contains("audio-gateway")
            || ["hsp", "hfp"].contains { name == $0 || name.hasPrefix($0 + "-") }
    }

    /// An A2DP profile that plays to the device (not `a2dp_source`, where the device plays to us).
    public static func isA2DPPlayback(_ profile: String) -> Bool {
        let name = normalized(profile)
        return name.hasPrefix("a2dp") && name.contains("sink")
    }

    /// The profile to switch a device in a call profile to for music, among its `available`
    /// ones: the server's own A2DP choice (`a2dp_sink` / `a2dp-sink`) if offered, else the first
    /// A2DP playback profile with a particular codec; nil when it has none.
    public static func musicProfile(among available: [String]) -> String? {
        available.first { normalized($0) == "a2dp-sink" } ?? available.first(where: isA2DPPlayback)
    }

    private static func normalized(_ profile: String) -> String {
        String(profile.lowercased().map { $0 == "_" ? "-" : $0 })
    }
}

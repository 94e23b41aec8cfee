internal import CPulse

/// What `pa_context_get_card_info_list` reports about one card (a sound device with profiles).
public struct CardInfo: Sendable, Equatable {
    public var index: UInt32
    public var name: String
    /// The active profile's name, e.g. `a2dp_sink` or `headset_head_unit` for Bluetooth,
    /// `output:analog-stereo` for ALSA; nil when the server reports none.
    public var activeProfileName: String?
    public var properties: [String: String]

    init(_ info: pa_card_info) {
        index = info.index
        name = info.name.map { String(cString: $0) } ?? ""
        activeProfileName = info.active_profile2.flatMap { $0.pointee.name.map { String(cString: $0) } }
        properties = Proplist.dictionary(of: info.proplist)
    }
}

internal import CPulse

/// What `pa_context_get_card_info_list` reports about one card (a sound device with profiles).
public struct CardInfo: Sendable, Equatable {
    public var index: UInt32
    public var name: String
    /// The active profile's name, e.g. `a2dp_sink` or `headset_head_unit` for Bluetooth,
    /// `output:analog-stereo` for ALSA; nil when the server reports none.
    public var activeProfileName: String?
    /// Every profile of the card, in the server's order (`profiles2`).
    public var profiles: [Profile]
    public var properties: [String: String]

    /// `pa_card_profile_info2`: one profile a card can be switched to.
    public struct Profile: Sendable, Equatable {
        public var name: String
        /// `available != 0`. An unavailable profile (e.g. a Bluetooth profile the connected
        /// device does not offer right now) makes no sense to activate.
        public var isAvailable: Bool

        public init(name: String, isAvailable: Bool = true) {
            self.name = name
            self.isAvailable = isAvailable
        }
    }

    /// The names of the profiles that can be activated now.
    public var availableProfileNames: [String] { profiles.filter(\.isAvailable).map(\.name) }

    /// For fakes and tests; real ones come from `Context.cards`.
    public init(index: UInt32, name: String, activeProfileName: String? = nil, profiles: [Profile] = [],
                properties: [String: String] = [:]) {
        self.index = index
        self.name = name
        self.activeProfileName = activeProfileName
        self.profiles = profiles
        self.properties = properties
    }

    init(_ info: pa_card_info) {
        index = info.index
        name = info.name.map { String(cString: $0) } ?? ""
        activeProfileName = info.active_profile2.flatMap { $0.pointee.name.map { String(cString: $0) } }
        var profiles: [Profile] = []
        if let list = info.profiles2 {
            for i in 0..<Int(info.n_profiles) {
                guard let profile = list[i]?.pointee, let name = profile.name else { continue }
                profiles.append(Profile(name: String(cString: name), isAvailable: profile.available != 0))
            }
        }
        self.profiles = profiles
        properties = Proplist.dictionary(of: info.proplist)
    }
}

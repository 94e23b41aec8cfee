import PlayerCore

extension PlaybackOutput {
    /// Switches `card` to `profile` (e.g. a Bluetooth headset to "a2dp_sink").
    /// Placeholder until the card-profile request lands; logs nothing, changes nothing.
    public func switchCardProfile(card: String, profile: String) {}
}

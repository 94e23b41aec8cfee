internal import PlayerCore

extension SingleMode {
    /// mpd's `SingleFromString`: exactly "0", "1" or "oneshot".
    static func parse(_ text: String) throws(MPDError) -> SingleMode {
        guard let mode = SingleMode(rawValue: text) else {
            throw MPDError(.argument, "Unrecognized single mode, expected 0, 1, or oneshot")
        }
        return mode
    }
}

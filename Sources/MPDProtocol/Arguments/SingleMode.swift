/// The `single` option: stop after the current song, always or once (mpd's `SingleMode`).
public enum SingleMode: String, Sendable, Hashable, CaseIterable {
    case off = "0"
    case on = "1"
    /// Stop after the current song, then turn single off.
    case oneshot

    /// mpd's `SingleFromString`: exactly "0", "1" or "oneshot".
    static func parse(_ text: String) throws(MPDError) -> SingleMode {
        guard let mode = SingleMode(rawValue: text) else {
            throw MPDError(.argument, "Unrecognized single mode, expected 0, 1, or oneshot")
        }
        return mode
    }
}

import PulseKit
import PlayerCore

extension PlaybackOutput {
    /// Asks the server to switch card `card` (by name, e.g. `bluez_card.00_11_22_33_44_55`) to
    /// `profile` (e.g. `a2dp_sink`). Returns at once; does not wait for the answer.
    ///
    /// No event reports the outcome, on purpose: a switch that happens shows up in the next
    /// `soundServerChanged` (the card's new profile, and usually a new sink our stream moves
    /// to); one that does not (no such card or profile, profile unavailable, not connected,
    /// the server refused) leaves the facts as they were, which is what the app decides from
    /// anyway. Nothing is logged either. Does nothing while not connected or for empty names.
    public func switchCardProfile(card: String, profile: String) {
        guard !card.isEmpty, !profile.isEmpty else { return }
        withEngine { engine in
            guard let context = engine.context, context.state == .ready else { return }
            do throws(PulseError) {
                // The server's answer (success or not) is not needed: see above.
                try context.setCardProfile(card: card, profile: profile)
            } catch {
                // Rejected by libpulse before sending (the context is going away).
            }
        }
    }
}

/// Why the player is paused (or stopped): what decides whether it may resume by itself.
public enum PauseReason: String, Sendable, CaseIterable {
    case none
    /// A person paused it: only a person resumes it.
    case user
    /// The private listening device went away.
    case routeChange
    /// A call (a phone-role stream, or the server's cork request).
    case interruption
    /// The system went to sleep.
    case sleep
    /// Another player started playing (category playback): Aubade resumes when it stops.
    case otherPlayer
    /// The sound server went away (restart, crash, upgrade): the position froze where the
    /// audio stopped, and playback resumes there when the server is back.
    case noSoundServer
    /// The sound server dropped our stream twice in a short while: something is wrong with
    /// it, so Aubade stops retrying until asked to play.
    case streamLost
}

/// A call in progress, as far as the player is concerned.
///
/// Two sources report calls: PulseAudio's cork request and our own watch of phone-role
/// streams (PipeWire has no role-cork). Either starts the interruption; it ends when either
/// says it is over; one call counts once however many sources report it.
struct Interruption: Sendable, Equatable {
    enum Source: Sendable, Hashable {
        case corkRequest
        case phoneStream
    }

    var sources: Set<Source> = []
    /// The interruption paused playback (we were playing when it began).
    var pausedUs = false
    /// A person gave a transport command during the interruption: do not resume.
    var userActed = false

    var isActive: Bool { !sources.isEmpty }
}

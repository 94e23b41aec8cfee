import PlayerCore

/// What `StateStore.load()` found.
public enum StateLoad: Sendable, Equatable {
    /// No state file: a first start (or the state was never saved).
    case empty
    /// The saved state. `dropped` lists the paths of queued files that no longer exist (they
    /// are left out, indices remapped), for a log line.
    case restored(PlayerMemento, dropped: [FilePath])
    /// The state file could not be used: unreadable, not JSON, another version, or
    /// inconsistent. It has been renamed to `keptAs` (never overwritten, never deleted) and the
    /// daemon should start empty. `reason` is for the log.
    case corrupt(reason: String, keptAs: String)
}

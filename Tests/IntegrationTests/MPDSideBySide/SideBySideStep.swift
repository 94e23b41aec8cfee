/// One step of the side-by-side corpus: what is sent to mpd and to Aubade alike, and how the two
/// answers are read. Lines may hold placeholders, filled in for each server from its own state
/// (song ids and queue versions are each server's own):
///
/// - `{id:N}`: the song id at queue position N, now;
/// - `{version:NAME}`: the queue version recorded by `.markVersion(NAME)`;
/// - `{music}`: the music folder's absolute path (the same for both).
enum SideBySideStep: Sendable {
    /// One line; the answers are compared.
    case command(String)
    /// Several lines sent at once (a command list), one answer compared.
    case batch([String])
    /// One line whose answer is compared as a set of song blocks (a shuffle's order is random).
    case unordered(String)
    /// Records each server's queue version (`status`) under a name, for `{version:NAME}`.
    case markVersion(String)
    /// Waits until each server's database update has ended (`status` shows no `updating_db`).
    case waitForUpdate
    /// Waits until each server plays the current song (`status`: state play, time elapsing).
    case waitForPlayback
    /// A client of its own on each server sends `idle …`, the trigger runs on the main client
    /// (compared), then the idle client's answer is compared. `noidle` as the trigger's only
    /// line is sent by the idle client itself.
    case idle(String, trigger: [SideBySideStep])
    /// A client of its own (TCP or the Unix socket) runs these steps, then closes.
    case client(unix: Bool, steps: [SideBySideStep])
    /// `albumart` or `readpicture` of `uri` read through in chunks of the binary limit: every
    /// chunk compared, bytes included, then one past the end.
    case picture(command: String, uri: String)
    /// Seeded random queue edits: the same edits, from the same seed, for both (see
    /// `SeededQueueEdits`), each answer compared.
    case seededEdits(seed: UInt64, count: Int)
}

import Decoding
import Dispatch
import PlayerCore
import Handoff

/// What was read from each audio file, kept in `$XDG_CACHE_HOME/aubade/` so that queueing a
/// known folder again opens no audio file: a file is looked up by its path, and the entry is
/// used only when its size, modification time (ns) and inode are still the file's (`stat`).
/// Any difference is a miss: the file is read again and the entry replaced — the index is
/// never trusted over the file.
///
/// Bounded: at most `Limits.entries` entries and `Limits.bytes` in the file; past either, the
/// least recently used entries are dropped. The file is loaded on first use (on the caller's
/// thread — the daemon's loading queue, never the core queue) and saved `saveDelay` seconds
/// after the first change of a burst, once for a whole folder rather than per file, replaced
/// atomically (safe against kill -9). A file that is corrupt, truncated, of another version or
/// too big is ignored with one log line and rebuilt.
///
/// Thread-safe: every method may be called from any thread; the entries live under a mutex.
public final class TagIndex: Sendable {
    public struct Limits: Sendable {
        public var entries: Int
        public var bytes: Int

        public init(entries: Int = 100_000, bytes: Int = 64 * 1024 * 1024) {
            self.entries = entries
            self.bytes = bytes
        }
    }

    private struct State {
        var loaded = false
        var entries: [[UInt8]: TagIndexEntry] = [:]
        /// Encoded bytes of all entries, kept up to date to enforce `Limits.bytes`.
        var bytes = 0
        /// Bumped on every use: an entry's `lastUsed` orders the eviction.
        var clock: UInt64 = 0
        var changed = false
        var saveScheduled = false
    }

    /// The index file's path.
    public let path: String
    private let limits: Limits
    private let saveDelay: Double
    private let saveQueue: DispatchQueue
    private let log: @Sendable (String) -> Void
    private let state = LockedState(State())

    /// - Parameters:
    ///   - path: the index file, e.g. `~/.cache/aubade/tags.index`.
    ///   - log: called once per problem (a corrupt file, a failed save).
    public init(path: String, limits: Limits = Limits(), saveDelay: Double = 2,
                saveQueue: DispatchQueue = DispatchQueue(label: "aubade.tag-index", qos: .utility),
                log: @escaping @Sendable (String) -> Void) {
        self.path = path
        self.limits = limits
        self.saveDelay = saveDelay
        self.saveQueue = saveQueue
        self.log = log
    }

    /// A reader for `QueueLoader` that answers from the index when it can and otherwise
    /// calls `read` and remembers its answer.
    public func reader(wrapping read: @escaping @Sendable (FilePath) throws(DecodingError) -> Track)
        -> @Sendable (FilePath) throws(DecodingError) -> Track {
        { [self] (path: FilePath) throws(DecodingError) -> Track in try track(at: path, reading: read) }
    }

    /// The track of the file at `path`: the index's if the file is unchanged, else `read`'s.
    public func track(at path: FilePath, reading read: (FilePath) throws(DecodingError) -> Track) throws(DecodingError) -> Track {
        // A path that cannot be stat'ed is the reader's to explain ("file not found" …).
        guard let key = TagIndexKey.current(of: path) else { return try read(path) }
        loadIfNeeded()
        let hit: Track? = state.withLock { state in
            guard var entry = state.entries[key.path], entry.key == key else { return nil }
            state.clock += 1
            entry.lastUsed = state.clock
            state.entries[key.path] = entry
            return entry.track
        }
        if let hit { return hit }
        let track = try read(path)
        // A file written while it was read may not match what was read: not remembered.
        guard TagIndexKey.current(of: path) == key else { return track }
        remember(TagIndexEntry(key: key, track: track, lastUsed: 0))
        return track
    }

    /// The track the index holds for the file at `path` if the file is unchanged, else nil;
    /// nothing is read from the file and nothing added to the index. For the library's first
    /// build: files queued before are not opened again, and the library's own database (not
    /// the index) keeps what is read for it.
    public func indexedTrack(at path: FilePath) -> Track? {
        guard let key = TagIndexKey.current(of: path) else { return nil }
        loadIfNeeded()
        return state.withLock { state in
            guard let entry = state.entries[key.path], entry.key == key else { return nil }
            return entry.track
        }
    }

    /// Records the exact length measured for a file whose length was an estimate, if the
    /// file is still the one indexed (so that queueing it again gives the exact length).
    public func noteExactLength(_ length: Microseconds, of path: FilePath) {
        guard length >= 0, let key = TagIndexKey.current(of: path) else { return }
        loadIfNeeded()
        let schedule: Bool = state.withLock { state in
            guard var entry = state.entries[key.path], entry.key == key,
                  entry.track.lengthIsEstimate || entry.track.length != length else { return false }
            entry.track.length = length
            entry.track.lengthIsEstimate = false
            state.entries[key.path] = entry
            state.changed = true
            guard !state.saveScheduled else { return false }
            state.saveScheduled = true
            return true
        }
        if schedule {
            saveQueue.asyncAfter(deadline: .now() + saveDelay) { [self] in saveNow() }
        }
    }

    /// At exit: whatever changed is saved now, after (never beside) a save already under way,
    /// so an index learnt just before a restart is not lost.
    public func flush() {
        saveQueue.sync { saveNow() }
    }

    /// Saves now if anything changed since the last save (the timer's job; for tests and quit).
    public func saveNow() {
        let snapshot: [TagIndexEntry]? = state.withLock { state in
            state.saveScheduled = false
            guard state.changed else { return nil }
            state.changed = false
            return Array(state.entries.values)
        }
        guard let snapshot else { return }
        do throws(TagIndexFile.Failure) {
            try TagIndexFile.replace(path, with: TagIndexCoding.encode(snapshot))
        } catch {
            log("tag index \(path) not saved: \(error.reason)")
        }
    }

    /// Entries in memory (for tests).
    public var count: Int {
        loadIfNeeded()
        return state.withLock { $0.entries.count }
    }

    // MARK: -

    private func remember(_ new: TagIndexEntry) {
        guard TagIndexCoding.isStorable(new) else { return }
        let schedule: Bool = state.withLock { state in
            state.clock += 1
            var entry = new
            entry.lastUsed = state.clock
            if let old = state.entries[entry.key.path] { state.bytes -= TagIndexCoding.encodedSize(old) }
            state.entries[entry.key.path] = entry
            state.bytes += TagIndexCoding.encodedSize(entry)
            Self.enforce(limits, on: &state)
            state.changed = true
            guard !state.saveScheduled else { return false }
            state.saveScheduled = true
            return true
        }
        if schedule {
            saveQueue.asyncAfter(deadline: .now() + saveDelay) { [self] in saveNow() }
        }
    }

    /// Drops the least recently used entries until both limits hold with a tenth to spare, so
    /// that a full index is not sorted again for every new file.
    private static func enforce(_ limits: Limits, on state: inout State) {
        let budget = limits.bytes - TagIndexCoding.headerLength
        guard state.entries.count > limits.entries || state.bytes > budget else { return }
        let byAge = state.entries.values.sorted { $0.lastUsed > $1.lastUsed }
        var kept: [[UInt8]: TagIndexEntry] = [:]
        var bytes = 0
        for entry in byAge {
            let size = TagIndexCoding.encodedSize(entry)
            guard kept.count < max(1, limits.entries * 9 / 10), bytes + size <= budget * 9 / 10 else { break }
            kept[entry.key.path] = entry
            bytes += size
        }
        state.entries = kept
        state.bytes = bytes
    }

    private func loadIfNeeded() {
        state.withLock { state in
            guard !state.loaded else { return }
            state.loaded = true
            let problem: String?
            do throws(TagIndexFile.Failure) {
                guard let bytes = try TagIndexFile.contents(of: path, limit: limits.bytes) else { return }
                do throws(TagIndexCoding.Corrupt) {
                    var entries: [[UInt8]: TagIndexEntry] = [:]
                    for entry in try TagIndexCoding.decode(bytes, maximumEntries: limits.entries) {
                        entries[entry.key.path] = entry
                        state.clock = max(state.clock, entry.lastUsed)
                    }
                    state.entries = entries
                    state.bytes = entries.values.reduce(0) { $0 + TagIndexCoding.encodedSize($1) }
                    return
                } catch {
                    problem = error.reason
                }
            } catch {
                problem = error.reason
            }
            if let problem {
                log("tag index \(path) ignored (\(problem)): it is rebuilt as files are read")
                // Rewritten at the next save, even if nothing new is read before it.
                state.changed = true
            }
        }
    }
}

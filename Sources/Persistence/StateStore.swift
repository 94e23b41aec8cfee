import FoundationEssentials
import PlayerCore
import Handoff
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The state that survives a restart, in `directory` (normally `$XDG_STATE_HOME/aubade`):
/// - `state.json`: the queue with its tags, current index, position, volume, LoopStatus,
///   Shuffle and play order (see `StoredState` for the format); written on changes
///   (debounced, see `DebouncedSaver`) and on exit;
/// - `position.json`: `{"version":1,"sequence":…,"currentIndex":…,"trackPath":…,"position":…}`,
///   written about once a second while playing, so a `kill -9` loses at most a second without
///   rewriting a 10,000-track file every second.
///
/// Both are written atomically (temporary file, fsync, rename, fsync of the folder): after a
/// crash at any moment each file is either the old or the new version. Both carry a sequence
/// number, so `position.json` wins only when it was written after `state.json` (a failed
/// rewrite of it never lets an older position override a newer state).
///
/// `state.json` is read only up to `maximumStateSize`, and the store never writes a bigger one
/// (a file it could not read back would be a lost queue).
///
/// Thread-safe; the two files are best written from one queue so their order is the order of
/// the changes (see `StateWriter`).
public final class StateStore: Sendable {
    /// 128 MiB: a typical track takes 351 bytes (`StateSizeTests` prints it), so 100,000 take
    /// 34 MiB; the limit leaves room for 100,000 tracks of 1,300 bytes (long paths, many
    /// artists and genres), and bounds what a hostile or broken file can make us read.
    public static let maximumStateSize = 128 << 20
    /// `position.json` holds one path: 1 MiB is far more than any.
    static let maximumPositionSize = 1 << 20

    public let directory: String
    /// The largest `state.json` read or written (`maximumStateSize` but in tests).
    public let maximumStateSize: Int
    /// The last sequence number read or written; the next write uses a higher one.
    private let lastSequence = LockedState<UInt64>(0)

    public init(directory: String, maximumStateSize: Int = StateStore.maximumStateSize) {
        self.directory = directory
        self.maximumStateSize = maximumStateSize
    }

    public var statePath: String { directory + "/state.json" }
    public var positionPath: String { directory + "/position.json" }

    /// Writes `state.json`, and `position.json` to match (same sequence), so an older position
    /// file can never win over the state just saved. Creates the folder (mode 700) if needed.
    public func save(_ memento: PlayerMemento) throws(PersistenceError) {
        let sequence = nextSequence()
        let state = try encoded(StoredState(memento, sequence: sequence), for: statePath)
        guard state.count <= maximumStateSize else {
            throw PersistenceError(path: statePath, call: "JSON encoding",
                                   reason: "the state of \(memento.tracks.count) tracks is \(state.count) bytes, "
                                       + "above the limit of \(FileIO.describeSize(maximumStateSize)) it could be read back with",
                                   code: EFBIG)
        }
        try FileIO.createDirectories(directory, mode: 0o700)
        try FileIO.writeAtomically(state, to: statePath, mode: 0o600)
        let path = memento.currentIndex.flatMap { memento.tracks.indices.contains($0) ? memento.tracks[$0].path : nil }
        try writePosition(currentIndex: memento.currentIndex, path: path, position: memento.position, sequence: sequence)
    }

    /// Writes `position.json`: where in which track playback is. `path` is the current
    /// track's file, checked on load against the track at `currentIndex` in `state.json`.
    public func savePosition(currentIndex: Int?, path: FilePath?, position: Microseconds) throws(PersistenceError) {
        try writePosition(currentIndex: currentIndex, path: path, position: position, sequence: nextSequence())
    }

    private func writePosition(currentIndex: Int?, path: FilePath?, position: Microseconds, sequence: UInt64) throws(PersistenceError) {
        let stored = StoredPosition(version: StoredState.currentVersion, sequence: sequence, currentIndex: currentIndex,
                                    track: path, position: max(0, position))
        let bytes = try encoded(stored, for: positionPath)
        try FileIO.createDirectories(directory, mode: 0o700)
        try FileIO.writeAtomically(bytes, to: positionPath, mode: 0o600)
    }

    /// The wall clock in µs (so a later run numbers its files after an earlier one even
    /// without reading them first), but always above the last number seen: a clock that steps
    /// back never makes a newer file look older.
    private func nextSequence() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let wall = UInt64(clamping: Int64(now.tv_sec)) &* 1_000_000 &+ UInt64(clamping: Int64(now.tv_nsec) / 1000)
        return lastSequence.withLock { last in
            last = max(last &+ 1, wall)
            return last
        }
    }

    private func noteSequence(_ sequence: UInt64?) {
        guard let sequence else { return }
        lastSequence.withLock { $0 = max($0, sequence) }
    }

    /// Reads the saved state. Never throws and never crashes, whatever the files hold:
    /// - no `state.json` → `.empty`;
    /// - `state.json` unreadable, not a regular file, above `maximumStateSize`, not JSON, of
    ///   another version or inconsistent → renamed aside to `state.json.corrupt-<unix time>`
    ///   and `.corrupt`;
    /// - else `.restored`: `position.json` supplies the current index and position when it is
    ///   newer than `state.json` (or neither has a sequence number) and its track path
    ///   matches the track at its index; then tracks whose files vanished are dropped and the
    ///   indices remapped (a vanished current track gives way to the next one remaining in
    ///   play order, at position 0).
    ///
    /// An unreadable `position.json` is ignored rather than kept aside: it only ever holds a
    /// copy of what `state.json` holds, at most a second newer.
    public func load() -> StateLoad {
        let position = loadPosition()
        noteSequence(position?.sequence)
        let bytes: [UInt8]
        do {
            bytes = try FileIO.contents(of: statePath, limit: maximumStateSize)
        } catch {
            if error.code == ENOENT { return .empty }
            return setAside("unreadable (\(error.call): \(error.reason))")
        }
        let data = Data(bytes)
        let decoder = JSONDecoder()
        let version: Int
        do {
            version = try decoder.decode(StoredVersion.self, from: data).version
        } catch {
            return setAside("not a state file (\(Self.describe(error)))")
        }
        guard version == StoredState.currentVersion else {
            return setAside("version \(version), expected \(StoredState.currentVersion)")
        }
        let stored: StoredState
        do {
            stored = try decoder.decode(StoredState.self, from: data)
        } catch {
            return setAside("not a state file (\(Self.describe(error)))")
        }
        noteSequence(stored.sequence)
        switch stored.memento() {
        case .failure(let inconsistency):
            return setAside("inconsistent: \(inconsistency.reason)")
        case .success(var memento):
            if let position, Self.isNewer(position, than: stored) { Self.apply(position, to: &memento) }
            let dropped = Self.dropVanished(from: &memento, exists: FileIO.isRegularFile)
            return .restored(memento, dropped: dropped)
        }
    }

    /// Whether `position.json` was written after `state.json`. Files from before sequence
    /// numbers keep the old rule (the position file wins when it matches).
    static func isNewer(_ position: StoredPosition, than state: StoredState) -> Bool {
        switch (position.sequence, state.sequence) {
        case (nil, nil): return true
        case (let mine, let theirs): return (mine ?? 0) > (theirs ?? 0)
        }
    }

    private func loadPosition() -> StoredPosition? {
        guard let bytes = try? FileIO.contents(of: positionPath, limit: Self.maximumPositionSize),
              let stored = try? JSONDecoder().decode(StoredPosition.self, from: Data(bytes)),
              stored.version == StoredState.currentVersion else { return nil }
        return stored
    }

    /// Removes the temporary files a write interrupted by a crash or `kill -9` left behind
    /// (`.state.json.tmp-…`, `.position.json.tmp-…`): on a full disk they would hold its space
    /// for good. Only for the lock's owner (`StateLock`): another writer's file may be in use.
    /// Returns the names removed.
    @discardableResult
    public func removeLeftoverTemporaryFiles() -> [String] {
        let prefixes = [".state.json.tmp-", ".position.json.tmp-"]
        let names = (try? FileIO.names(inDirectory: directory)) ?? []
        var removed: [String] = []
        for name in names where prefixes.contains(where: name.hasPrefix) {
            if (try? FileIO.remove(directory + "/" + name)) != nil { removed.append(name) }
        }
        return removed
    }

    /// Moves the unusable `state.json` aside and says so. If even the rename fails (a
    /// read-only folder), the file stays where it is; saving would then fail the same way, so
    /// it is still not overwritten.
    private func setAside(_ reason: String) -> StateLoad {
        do {
            let kept = try FileIO.renameAside(statePath, suffix: ".corrupt-\(time(nil))")
            return .corrupt(reason: reason, keptAs: kept)
        } catch {
            return .corrupt(reason: reason + "; could not be renamed aside (\(error))", keptAs: statePath)
        }
    }

    private func encoded<Value: Encodable>(_ value: Value, for path: String) throws(PersistenceError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(value))
        } catch {
            throw PersistenceError(path: path, call: "JSON encoding", reason: Self.describe(error))
        }
    }

    /// A decoding error in a few words, without Foundation's long debug descriptions.
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? Swift.DecodingError else { return "\(error)" }
        switch decoding {
        case .dataCorrupted(let context):
            return "malformed JSON" + where_(context)
        case .keyNotFound(let key, let context):
            return "missing \"\(key.stringValue)\"" + where_(context)
        case .typeMismatch(let type, let context):
            return "expected \(type)" + where_(context)
        case .valueNotFound(let type, let context):
            return "null where \(type) was expected" + where_(context)
        @unknown default:
            return "\(error)"
        }
    }

    private static func where_(_ context: Swift.DecodingError.Context) -> String {
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
        return path.isEmpty ? "" : " at \(path)"
    }
}

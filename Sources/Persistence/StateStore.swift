import FoundationEssentials
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The state that survives a restart, in `directory` (normally `$XDG_STATE_HOME/aubade`):
/// - `state.json`: the queue with its tags, current index, position, volume, LoopStatus,
///   Shuffle and play order (see `StoredState` for the format); written on changes
///   (debounced, see `DebouncedSaver`) and on exit;
/// - `position.json`: `{"version":1,"currentIndex":…,"trackPath":…,"position":…}`, written
///   about once a second while playing, so a `kill -9` loses at most a second without
///   rewriting a 10,000-track file every second.
///
/// Both are written atomically (temporary file, fsync, rename, fsync of the folder): after a
/// crash at any moment each file is either the old or the new version.
///
/// A value type without mutable state: safe to use from any thread, though the two files are
/// best written from one queue so their order is the order of the changes.
public struct StateStore: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    public var statePath: String { directory + "/state.json" }
    public var positionPath: String { directory + "/position.json" }

    /// Writes `state.json`, and `position.json` to match, so an older position file can
    /// never win over the state just saved. Creates the folder (mode 700) if needed.
    public func save(_ memento: PlayerMemento) throws(PersistenceError) {
        let state = try encoded(StoredState(memento), for: statePath)
        try FileIO.createDirectories(directory, mode: 0o700)
        try FileIO.writeAtomically(state, to: statePath, mode: 0o600)
        let path = memento.currentIndex.flatMap { memento.tracks.indices.contains($0) ? memento.tracks[$0].path : nil }
        try savePosition(currentIndex: memento.currentIndex, path: path, position: memento.position)
    }

    /// Writes `position.json`: where in which track playback is. `path` is the current
    /// track's file, checked on load against the track at `currentIndex` in `state.json`.
    public func savePosition(currentIndex: Int?, path: FilePath?, position: Microseconds) throws(PersistenceError) {
        let stored = StoredPosition(version: StoredState.currentVersion, currentIndex: currentIndex,
                                    track: path, position: max(0, position))
        let bytes = try encoded(stored, for: positionPath)
        try FileIO.createDirectories(directory, mode: 0o700)
        try FileIO.writeAtomically(bytes, to: positionPath, mode: 0o600)
    }

    /// Reads the saved state. Never throws and never crashes, whatever the files hold:
    /// - no `state.json` → `.empty`;
    /// - `state.json` unreadable, not JSON, of another version or inconsistent → renamed aside
    ///   to `state.json.corrupt-<unix time>` and `.corrupt`;
    /// - else `.restored`: `position.json` supplies the current index and position when its
    ///   track path matches the track at its index; then tracks whose files vanished are
    ///   dropped and the indices remapped (a vanished current track gives way to the next one
    ///   remaining in play order, at position 0).
    ///
    /// An unreadable `position.json` is ignored rather than kept aside: it only ever holds a
    /// copy of what `state.json` holds, at most a second newer.
    public func load() -> StateLoad {
        let bytes: [UInt8]
        do {
            bytes = try FileIO.contents(of: statePath)
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
        switch stored.memento() {
        case .failure(let inconsistency):
            return setAside("inconsistent: \(inconsistency.reason)")
        case .success(var memento):
            if let position = loadPosition() { Self.apply(position, to: &memento) }
            let dropped = Self.dropVanished(from: &memento, exists: FileIO.isRegularFile)
            return .restored(memento, dropped: dropped)
        }
    }

    private func loadPosition() -> StoredPosition? {
        guard let bytes = try? FileIO.contents(of: positionPath),
              let stored = try? JSONDecoder().decode(StoredPosition.self, from: Data(bytes)),
              stored.version == StoredState.currentVersion else { return nil }
        return stored
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

import DBusKit
import Dispatch
import FrontEnd
import FoundationEssentials
import MPRIS
import Persistence
import PlayerCore

/// The saved playlists (a folder of M3U/M3U8/PLS files), as the MPRIS Playlists interface
/// shows them: listed once, listed again when the folder changes (inotify).
///
/// The folder is listed and written on the loading queue, never on the core queue (a slow
/// disk must not hold up the bus); the results are applied on the core queue.
///
/// `@unchecked Sendable`: its state is used on the core queue only; the watcher calls back on
/// that queue; `folder` is immutable.
final class PlaylistShelf: @unchecked Sendable {
    static let pathPrefix = "/org/aubade/Playlist/"

    let folder: PlaylistFolder
    private let queue: DispatchQueue
    private var watcher: PlaylistWatcher?
    private(set) var playlists: [PlaylistDescription] = []
    private var infos: [String: PlaylistInfo] = [:]
    var active: PlaylistDescription?
    /// Told the old and new lists after each change of the folder.
    var onChange: (([PlaylistDescription], [PlaylistDescription]) -> Void)?

    private let loadingQueue: DispatchQueue

    init(path: String, queue: DispatchQueue, loadingQueue: DispatchQueue) {
        folder = PlaylistFolder(path: path)
        self.queue = queue
        self.loadingQueue = loadingQueue
    }

    /// The first listing is made at once, before the daemon owns its bus name (start-up may
    /// read the disk: nothing waits on the bus yet), so GetPlaylists never answers an empty
    /// list just because it came early. The folder is watched first: a playlist written
    /// between the listing and the watch would otherwise never be seen.
    func start() {
        watch()
        apply(Self.list(folder))
    }

    private func watch() {
        guard watcher?.isWatching != true else { return }
        do {
            watcher = try PlaylistWatcher(folder: folder.path, queue: queue) { [weak self] in
                self?.reload()
            }
        } catch {
            Log.warning("cannot watch \(folder.path): \(error)")
        }
    }

    /// Lists the folder again (off the core queue) and announces what changed.
    func reload(then done: (() -> Void)? = nil) {
        let folder = self.folder
        let done = UncheckedSendable(done)
        loadingQueue.async { [self] in
            let listing = Self.list(folder)
            queue.async { [self] in
                apply(listing)
                done.value?()
            }
        }
    }

    private static func list(_ folder: PlaylistFolder) -> Result<[(PlaylistInfo, String)], PersistenceError> {
        do throws(PersistenceError) {
            return .success(try folder.list(ordering: .userDefined).map { ($0, folder.iconURI(for: $0) ?? "") })
        } catch {
            return .failure(error)
        }
    }

    private func apply(_ listing: Result<[(PlaylistInfo, String)], PersistenceError>) {
        dispatchPrecondition(condition: .onQueue(queue))
        let old = playlists
        switch listing {
        case .success(let listed):
            infos = Dictionary(listed.map { (Self.pathPrefix + $0.0.id, $0.0) }) { first, _ in first }
            playlists = listed.enumerated().map { index, entry in
                let (info, icon) = entry
                return PlaylistDescription(objectPath: Self.pathPrefix + info.id, name: info.name, icon: icon,
                                           modified: Int64(info.modified.timeIntervalSince1970),
                                           created: Int64(info.created.timeIntervalSince1970), userOrder: index)
            }
        case .failure(let error):
            Log.warning("cannot list the playlists: \(error)")
            playlists = []
        }
        if let active, !playlists.contains(where: { $0.objectPath == active.objectPath }) { self.active = nil }
        if old != playlists { onChange?(old, playlists) }
    }

    func info(for playlist: PlaylistDescription) -> PlaylistInfo? { infos[playlist.objectPath] }

    /// Writes the playlist on the loading queue (it fsyncs); `completion` runs on the core queue.
    func save(name: String, tracks: [Track], completion: @escaping (Result<Void, FrontEndError>) -> Void) {
        let folder = self.folder
        let deliver = UncheckedSendable(completion)
        loadingQueue.async { [self] in
            let result: Result<PlaylistInfo, PersistenceError>
            do throws(PersistenceError) {
                result = .success(try folder.save(name: name, tracks: tracks))
            } catch {
                result = .failure(error)
            }
            queue.async { [self] in
                switch result {
                case .success(let info):
                    Log.info("saved \(tracks.count) tracks as \(info.path)")
                    // Answered once the new list is known, so GetPlaylists right after sees it.
                    reload { deliver.value(.success(())) }
                    watch()  // The first save may have created the folder.
                case .failure(let error):
                    deliver.value(.failure(.invalidArgument("cannot save the playlist \"\(name)\": \(error)")))
                }
            }
        }
    }
}

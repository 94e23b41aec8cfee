import DBusKit
import Dispatch
import FoundationEssentials
import MPRIS
import Persistence
import PlayerCore

/// The saved playlists (a folder of M3U/M3U8/PLS files), as the MPRIS Playlists interface
/// shows them: listed once, listed again when the folder changes (inotify).
///
/// `@unchecked Sendable`: used on the core queue only; the watcher calls back on that queue.
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

    init(path: String, queue: DispatchQueue) {
        folder = PlaylistFolder(path: path)
        self.queue = queue
    }

    func start() {
        reload()
        watch()
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

    func reload() {
        let old = playlists
        do {
            let listed = try folder.list(ordering: .userDefined)
            infos = Dictionary(listed.map { (Self.pathPrefix + $0.id, $0) }) { first, _ in first }
            playlists = listed.enumerated().map { index, info in
                PlaylistDescription(objectPath: Self.pathPrefix + info.id, name: info.name,
                                    icon: folder.iconURI(for: info) ?? "",
                                    modified: Int64(info.modified.timeIntervalSince1970),
                                    created: Int64(info.created.timeIntervalSince1970), userOrder: index)
            }
        } catch {
            Log.warning("cannot list the playlists: \(error)")
            playlists = []
        }
        if let active, !playlists.contains(where: { $0.objectPath == active.objectPath }) { self.active = nil }
        if old != playlists { onChange?(old, playlists) }
    }

    func info(for playlist: PlaylistDescription) -> PlaylistInfo? { infos[playlist.objectPath] }

    func save(name: String, tracks: [Track]) throws(DBusError) {
        do {
            let info = try folder.save(name: name, tracks: tracks)
            Log.info("saved \(tracks.count) tracks as \(info.path)")
        } catch {
            throw DBusError.invalidArgs("cannot save the playlist \"\(name)\": \(error)")
        }
        reload()
        watch()  // The first save may have created the folder.
    }
}

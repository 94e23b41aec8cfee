import DBusKit
import Dispatch
import Glibc
import Library
import Persistence
import PlayerCore

/// Starts the daemon and keeps the process alive on the core queue.
enum Server {
    static func run(paths: [String]) -> Int32 {
        let (tracks, problems) = QueueLoader().load(paths)
        for problem in problems { Log.warning(problem.description) }
        if !paths.isEmpty, tracks.isEmpty {
            Log.error("nothing to play in \(paths.joined(separator: ", "))")
            return 1
        }
        let queue = DispatchQueue(label: "aubade.core")
        let daemon: Daemon
        do {
            daemon = try queue.sync { () throws(DBusError) -> Daemon in
                let directories = XDGDirectories.current()
                // AUBADE_PLAYLISTS_DIR overrides the folder (tests; the configuration file later).
                let playlists = getenv("AUBADE_PLAYLISTS_DIR").map { String(cString: $0) } ?? directories.playlistsDirectory
                let daemon = try Daemon(queue: queue, directories: directories, playlistsFolder: playlists)
                try daemon.start(playing: tracks)
                return daemon
            }
        } catch let error as DBusError {
            Log.error("cannot serve on the session bus: \(error.message)")
            return 1
        } catch {
            Log.error("cannot serve on the session bus: \(error)")
            return 1
        }
        withExtendedLifetime(daemon) { dispatchMain() }
    }
}

import DBusKit
import Dispatch
import Configuration
import Decoding
import Glibc
import Library
import Persistence
import PlayerCore

/// Starts the daemon and keeps the process alive on the core queue.
enum Server {
    nonisolated(unsafe) private static var startupLoad: StartupLoad?

    /// `reload` reads the configuration again (SIGHUP). `volumeFlag` is a `--volume` given on
    /// the command line: unlike the file's initial volume, it wins over the restored one.
    static func run(paths: [String], settings: Settings, volumeFlag: Double?,
                    reload: @escaping () throws(ConfigurationError) -> Settings) -> Int32 {
        // One tag index for every load: a folder queued before is not read again.
        let tagIndex = TagIndex(path: XDGDirectories.current().tagIndexFile, log: { Log.warning($0) })
        let loader = QueueLoader(reader: tagIndex.reader(wrapping: TrackReader.read))
        // The PATHs are read on a thread of their own; the daemon starts with the first batch
        // (a big folder's first album plays at once) and gets the rest as it is read.
        let load = StartupLoad(paths: paths.map(RawArguments.path(for:)), loader: loader)
        // Held for the life of the process: its loading thread may still be letting go of it
        // when the process exits (right after a load that found nothing), which LeakSanitizer
        // would otherwise report as a leak.
        startupLoad = load
        let tracks = load.firstBatch()
        if !paths.isEmpty, tracks.isEmpty {
            Log.error("nothing to play in \(paths.joined(separator: ", "))")
            return 1
        }
        let queue = DispatchQueue(label: "aubade.core")
        let daemon: Daemon
        do {
            daemon = try queue.sync { () throws(DBusError) -> Daemon in
                let directories = XDGDirectories.current()
                // AUBADE_PLAYLISTS_DIR (for tests) stands in for the configured folder.
                let playlists = settings.playlistsFolder ?? getenv("AUBADE_PLAYLISTS_DIR").map { String(cString: $0) }
                    ?? directories.playlistsDirectory
                let daemon = try Daemon(queue: queue, directories: directories, playlistsFolder: playlists, loader: loader,
                                        tagIndex: tagIndex)
                try daemon.start(playing: tracks, settings: settings, volumeFlag: volumeFlag, reload: reload)
                load.continue(into: daemon)
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

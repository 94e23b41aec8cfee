import Configuration
import Decoding
import Glibc
import Library
import MPDProtocol
import MPDServer
import MusicDatabase
import Persistence
import PlayerCore

/// The library and its front-ends: the music folders as a database, served to every MPD client
/// on the Unix socket and (by default on loopback) TCP, and to the page (Daemon+Web.swift) —
/// front-ends of the player beside MPRIS.
extension Daemon {
    func startLibraryFrontEnds(settings: Settings) {
        let directories = XDGDirectories.current()
        let library = makeLibrary(settings: settings, directories: directories)
        let mpd = startMPD(settings: settings, library: library, directories: directories)
        let web = startWeb(settings: settings, library: library)
        library?.events = { [weak mpd, weak web] event in
            switch event {
            case .updateStarted(let job): mpd?.libraryUpdate(job: job, finished: false)
            case .updateFinished(let job): mpd?.libraryUpdate(job: job, finished: true)
            case .changed:
                mpd?.libraryChanged(IdleSubsystems.database)
                web?.libraryChanged()
            }
        }
        self.mpd = mpd
        self.web = web
        self.library = library
        mpd.start()
        library?.start()
    }

    private func startMPD(settings: Settings, library: MusicLibrary?, directories: XDGDirectories) -> MPDFrontEnd {
        let socket = directories.mpdSocket.flatMap(Self.prepareSocketFolder)
        let server = MPDServerSettings(
            socketPath: socket, address: settings.mpdAddress, port: UInt16(clamping: settings.mpdPort),
            passwords: settings.mpdPasswords, defaultPermissions: settings.mpdDefaultPermissions,
            maximumClients: settings.mpdMaximumClients, timeout: settings.mpdTimeout)
        let output = settings.output == .snapcast
            ? OutputInfo(id: 0, name: "Snapcast", plugin: "snapcast", enabled: true)
            : OutputInfo(id: 0, name: "PulseAudio", plugin: "pulse", enabled: true)
        let mpd = MPDFrontEnd(host: self, playerQueue: coreQueue, settings: server, library: library,
                              playlistsFolder: shelf.folder.path, loader: loader, outputs: [output],
                              clock: { MonotonicClock.now() }, log: { level, message in Log.write(level, message) })
        frontEnds.attach(mpd)
        return mpd
    }

    /// The library of the music folders that are folders (a `music-folder` may also name a file
    /// or a playlist to play: those are no library).
    private func makeLibrary(settings: Settings, directories: XDGDirectories) -> MusicLibrary? {
        let folders = settings.musicFolders.filter(Self.isDirectory).compactMap(FilePath.init)
        guard !folders.isEmpty else { return nil }
        let tagIndex = self.tagIndex
        // Files the tag index knows are not opened again; what is read for the library is kept
        // by the library's own database, not the index (100,000 songs would fill it).
        let reader: @Sendable (FilePath) throws(DecodingError) -> Track = { path throws(DecodingError) in
            if let known = tagIndex.indexedTrack(at: path) { return known }
            return try TrackReader.read(path: path)
        }
        return MusicLibrary(configuration: LibraryConfiguration(folders: folders, cacheFile: directories.libraryFile),
                            reader: reader, log: { level, message in Log.write(level, message) })
    }

    /// `$XDG_RUNTIME_DIR/aubade/`, made if missing and kept to its owner (0700): the socket's
    /// path, or nil (logged) when the folder cannot be had.
    private static func prepareSocketFolder(_ socket: String) -> String? {
        let folder = String(socket[..<(socket.lastIndex(of: "/") ?? socket.endIndex)])
        if mkdir(folder, 0o700) != 0, errno != EEXIST {
            Log.warning("MPD: cannot make \(folder) (\(String(cString: strerror(errno)))): no Unix socket")
            return nil
        }
        return socket
    }
}

import Library
import MPDProtocol
import MusicDatabase
import PlayerCore

/// Stored playlists: list, show, load, save and edit the files of the playlists folder. Every
/// file operation runs on the files queue; the answer hops back.
extension MPDServer {
    func runStoredPlaylist(_ command: MPDCommand, for client: MPDClient, reply: @escaping Reply) {
        let snapshot = library?.snapshot
        let describer = SongDescriber(library: snapshot)
        let tags = client.tags
        let playlists = self.playlists
        switch command {
        case .listPlaylists:
            inFiles(reply) {
                .answer(self.writing { writer in
                    for playlist in playlists.all() { writer.playlist(playlist.name, lastModified: playlist.modified) }
                })
            }
        case .listPlaylist(let name), .listPlaylistInfo(let name):
            let full: Bool
            if case .listPlaylistInfo = command { full = true } else { full = false }
            let file = Self.libraryPlaylist(name, in: snapshot)
            inFiles(reply) {
                let locations = try playlists.locations(of: name, inLibrary: file)
                return .stream(SequenceProducer(locations.makeIterator()) { writer, location in
                    let info = Self.info(location, describer: describer)
                    full ? writer.song(info, tags: tags) : writer.line("file", info.uri)
                })
            }
        case .load(let name, let range, let position):
            let queueLength = mirror.queue.count, current = mirror.currentPosition
            let file = Self.libraryPlaylist(name, in: snapshot)
            let box = UncheckedBox(reply)
            inFiles({ outcome in box.value(outcome) }) {
                let chosen = try playlists.locations(of: name, inLibrary: file, range: range)
                var place = QueuePlace.atEnd
                if let position { place = .position(try position.resolve(queueLength: queueLength, currentPosition: current)) }
                let tracks = Self.tracks(chosen, snapshot: snapshot, loader: playlists.loader)
                // Back on the MPD queue: the tracks go into the queue.
                return .deferred { [weak self] reply in self?.enqueue(tracks, at: place, reply: reply) }
            }
        case .save(let name):
            let tracks = mirror.queue.entries.map(\.track)
            inFiles(reply) {
                try StoredPlaylists.check(name: name)
                guard !playlists.exists(name) else { throw MPDError(.exist, "Playlist already exists") }
                try playlists.write(name, tracks)
                return Self.fileOK
            }
        case .remove(let name):
            inFiles(reply) { try playlists.remove(name); return Self.fileOK }
        case .rename(let name, let newName):
            inFiles(reply) { try playlists.rename(name, to: newName); return Self.fileOK }
        case .playlistClear(let name):
            inFiles(reply) { try playlists.clear(name); return Self.fileOK }
        case .playlistDelete(let name, let range):
            inFiles(reply) { try playlists.delete(range, from: name, snapshot: snapshot); return Self.fileOK }
        case .playlistMove(let name, let from, let to):
            inFiles(reply) { try playlists.move(from, to: to, in: name, snapshot: snapshot); return Self.fileOK }
        case .playlistAdd(let name, let uri, let position):
            let box = UncheckedBox(reply)
            resolveTracks(uri, for: client, single: false) { [weak self] result in
                guard let self else { return }
                switch result {
                case .failure(let error): box.value(.failure(error))
                case .success(let added):
                    self.inFiles(box.value) {
                        try StoredPlaylists.check(name: name)
                        var tracks = playlists.exists(name) ? try playlists.tracks(of: name, snapshot: snapshot) : []
                        let index = position ?? tracks.count
                        guard index <= tracks.count else { throw MPDError(.argument, "Bad position") }
                        tracks.insert(contentsOf: added, at: index)
                        try playlists.write(name, tracks)
                        return Self.fileOK
                    }
                }
            }
        default:
            reply(.failure(MPDError(.unknown, "unknown command")))
        }
    }

    /// Runs `work` on the files queue; its outcome (or the error it throws) is the answer, on
    /// the MPD queue.
    func inFiles(_ reply: @escaping Reply, _ work: @escaping () throws -> FileOutcome) {
        let box = UncheckedBox(reply)
        let job = UncheckedBox(work)
        files.async { [queue] in
            let outcome: FileOutcome
            do {
                outcome = try job.value()
            } catch let error as MPDError {
                outcome = .failure(error)
            } catch {
                outcome = .failure(MPDError(.system, "\(error)"))
            }
            let sendable = UncheckedBox(outcome)
            queue.async {
                switch sendable.value {
                case .deferred(let then): then(box.value)
                default: box.value(sendable.value.command)
                }
            }
        }
    }

    func writing(_ body: (inout ResponseWriter) -> Void) -> ResponseWriter {
        var writer = ResponseWriter()
        body(&writer)
        return writer
    }

    static func info(_ location: MediaLocation, describer: SongDescriber) -> SongInfo {
        switch location {
        case .stream(let url): return SongInfo(uri: url.text)
        case .file(let path):
            if let library = describer.library, let uri = library.uri(of: path), let song = library.song(uri: uri) {
                return describer.info(song)
            }
            return SongInfo(uri: describer.library?.uri(of: path) ?? path.displayString)
        }
    }

    /// The tracks of locations: library songs as the library knows them (no file opened),
    /// stations as they are, other files read as any file is (files queue).
    static func tracks(_ locations: [MediaLocation], snapshot: LibrarySnapshot?, loader: QueueLoader) -> [Track] {
        locations.flatMap { location -> [Track] in
            switch location {
            case .stream(let url): return [Track(stream: url)]
            case .file(let path):
                if let snapshot, let uri = snapshot.uri(of: path), let song = snapshot.song(uri: uri) { return [song.track()] }
                return loader.load([path]).tracks
            }
        }
    }

}

/// What a file job comes to: an outcome, or more work to do back on the MPD queue.
enum FileOutcome {
    case answer(ResponseWriter)
    case stream(any ResponseProducer)
    case failure(MPDError)
    /// Continue on the MPD queue (the tracks read go into the queue).
    case deferred((@escaping MPDServer.Reply) -> Void)

    var command: CommandOutcome {
        switch self {
        case .answer(let writer): return .answer(writer)
        case .stream(let producer): return .stream(producer)
        case .failure(let error): return .failure(error)
        case .deferred: return .failure(MPDError(.system, "internal error"))
        }
    }
}

extension MPDServer {
    static var fileOK: FileOutcome { .answer(ResponseWriter()) }

    /// The file of the playlist the library has at `uri` (an M3U or PLS of the music folder).
    static func libraryPlaylist(_ uri: String, in snapshot: LibrarySnapshot?) -> FilePath? {
        guard let snapshot else { return nil }
        let parent = uri.lastIndex(of: "/").map { String(uri[..<$0]) } ?? ""
        guard let directory = snapshot.directory(uri: parent) else { return nil }
        let listed = snapshot.contents(of: directory).contains { entry in
            if case .playlist(let found, _) = entry { return found == uri }
            return false
        }
        return listed ? snapshot.filePath(forURI: uri) : nil
    }
}

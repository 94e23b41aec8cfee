import FrontEnd
import MPDProtocol
import MusicDatabase
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Editing the queue: add (library songs and folders, stations, and for local clients any
/// file), delete, move, swap, shuffle, priorities — each checked against the queue as the
/// mirror has it, then sent to the player by entry id, so that a change made meanwhile by
/// another front-end can make it do nothing, never the wrong thing.
extension MPDServer {
    func runQueueEdit(_ command: MPDCommand, for client: MPDClient, reply: @escaping Reply) {
        let queue = mirror.queue
        switch command {
        case .add(let uri, let position):
            add(uri, at: position, for: client, answeringID: false, reply: reply)
        case .addID(let uri, let position):
            add(uri, at: position, for: client, answeringID: true, reply: reply)
        case .clear:
            perform(.replaceQueue([], play: false), reply: reply)
        case .delete(let range):
            guard range.start <= queue.count else { return reply(.failure(.badSongIndex)) }
            let ids = queue.entries[range.clipped(to: queue.count)].map(\.id)
            guard !ids.isEmpty else { return reply(Self.ok) }
            remove(ids, reply: reply)
        case .deleteID(let id):
            guard let entry = entry(id: id) else { return reply(.failure(.noSuchSong)) }
            remove([entry.id], reply: reply)
        case .move(let range, let destination):
            guard let end = range.end, range.start < end, end <= queue.count else { return reply(.failure(.badSongIndex)) }
            move(range.start..<end, to: destination, reply: reply)
        case .moveID(let id, let destination):
            guard let entry = entry(id: id), let position = queue.position(of: entry.id) else {
                return reply(.failure(.noSuchSong))
            }
            move(position..<position + 1, to: destination, reply: reply)
        case .swap(let a, let b):
            guard let first = entry(at: a), let second = entry(at: b) else { return reply(.failure(.badSongIndex)) }
            perform(.swapEntries(first.id, second.id), reply: reply)
        case .swapID(let a, let b):
            guard let first = entry(id: a), let second = entry(id: b) else { return reply(.failure(.noSuchSong)) }
            perform(.swapEntries(first.id, second.id), reply: reply)
        case .shuffle(let range):
            guard range.start <= queue.count else { return reply(.failure(.badSongIndex)) }
            perform(.shuffleQueue(range.clipped(to: queue.count)), reply: reply)
        case .setPriority(let priority, let ranges):
            var ids: [EntryID] = []
            for range in ranges {
                guard range.start <= queue.count else { return reply(.failure(.badSongIndex)) }
                ids += queue.entries[range.clipped(to: queue.count)].map(\.id)
            }
            perform(.setPriority(ids, UInt8(clamping: priority)), reply: reply)
        case .setPriorityByID(let priority, let songIDs):
            var ids: [EntryID] = []
            for id in songIDs {
                guard let entry = entry(id: id) else { return reply(.failure(.noSuchSong)) }
                ids.append(entry.id)
            }
            perform(.setPriority(ids, UInt8(clamping: priority)), reply: reply)
        default:
            reply(.failure(MPDError(.unknown, "unknown command")))
        }
    }

    /// Removes entries; the current song among them while paused stops the player, as in mpd
    /// (the song after it becomes current, not playing). Playing, the next one plays.
    private func remove(_ ids: [EntryID], reply: @escaping Reply) {
        let current = mirror.current?.id
        let stops = mirror.snapshot.status == .paused && current.map(ids.contains) == true
        perform(stops ? [.removeEntries(ids), .stop] : [.removeEntries(ids)], reply: reply)
    }

    private func move(_ range: Range<Int>, to destination: MoveDestination, reply: @escaping Reply) {
        let queue = mirror.queue
        let target: Int
        do throws(MPDError) {
            target = try destination.resolve(moving: range, queueLength: queue.count, currentPosition: mirror.currentPosition)
        } catch {
            return reply(.failure(error))
        }
        guard target >= 0, target + range.count <= queue.count else { return reply(.failure(.badSongIndex)) }
        perform(.moveEntries(queue.entries[range].map(\.id), toPosition: target), reply: reply)
    }

    /// `add`/`addid`: what `uri` names goes in at `position`; `addid` answers the new song's id.
    private func add(_ uri: String, at position: InsertPosition?, for client: MPDClient, answeringID: Bool,
                     reply: @escaping Reply) {
        let place: QueuePlace
        do throws(MPDError) {
            place = try insertionPlace(position)
        } catch {
            return reply(.failure(error))
        }
        let box = UncheckedBox(reply)
        resolveTracks(uri, for: client, single: answeringID) { [weak self] result in
            guard let self else { return }
            switch result {
            case .failure(let error):
                box.value(.failure(error))
            case .success(let tracks):
                self.enqueue(tracks, at: place, answeringID: answeringID, reply: box.value)
            }
        }
    }

    /// Where `add … POS` puts songs: at the end without a position.
    func insertionPlace(_ position: InsertPosition?) throws(MPDError) -> QueuePlace {
        guard let position else { return .atEnd }
        return .position(try position.resolve(queueLength: mirror.queue.count, currentPosition: mirror.currentPosition))
    }

    /// Adds `tracks` to the queue at `place` (`findadd`, `searchadd`, `load` too).
    func enqueue(_ tracks: [Track], at place: QueuePlace, answeringID: Bool = false, reply: @escaping Reply) {
        guard mirror.queue.count + tracks.count <= PlayerState.queueCapacity else {
            return reply(.failure(MPDError(.playlistMax, "Playlist is too large")))
        }
        guard !tracks.isEmpty else { return reply(Self.ok) }
        let box = UncheckedBox(reply)
        frontEnd.perform(.addTracks(tracks, at: place, makeCurrent: false)) { turn in
            guard answeringID else { return box.value(Self.ok) }
            let added = turn?.effects.lazy.compactMap { effect -> EntryID? in
                if case .trackList(.added(let ids, _)) = effect { return ids.first }
                return nil
            }.first
            guard let added else { return box.value(.failure(MPDError(.noExist, "No such song"))) }
            var writer = ResponseWriter()
            writer.line("Id", Int(clamping: added.rawValue))
            box.value(.answer(writer))
        }
    }

    /// What an `add` URI names: a song or folder of the library ("" is all of it), a station's
    /// http(s) URL, or — for a client on the Unix socket only, as in mpd — a local file by its
    /// absolute path or `file://` URI. `single`: a song only (`addid`).
    func resolveTracks(_ uri: String, for client: MPDClient, single: Bool,
                       completion: @escaping (Result<[Track], MPDError>) -> Void) {
        let lowered = uri.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") {
            do throws(StreamURL.Problem) {
                return completion(.success([Track(stream: try StreamURL(validating: uri))]))
            } catch {
                return completion(.failure(MPDError(.argument, "Malformed URI")))
            }
        }
        if uri.hasPrefix("/") || lowered.hasPrefix("file://") {
            // Over TCP no file outside the library is reachable: mpd's rule for non-local clients.
            guard client.isLocal else { return completion(.failure(MPDError(.permission, "Access denied"))) }
            return addLocalSong(uri, completion: completion)
        }
        guard let snapshot = library?.snapshot else { return completion(.failure(.noSuchDirectory)) }
        if let song = snapshot.song(uri: uri) { return completion(.success([song.track()])) }
        guard !single, let directory = snapshot.directory(uri: uri) else {
            return completion(.failure(single ? .noSuchSong : .noSuchDirectory))
        }
        let filter: SongFilter = directory.isRoot ? .and([]) : .base(directory.uri)
        completion(.success(snapshot.songs(matching: filter).map { $0.track() }))
    }

    /// A local client's song by its absolute path or `file://` URI: one song file, as mpd takes
    /// it — not a folder or a playlist (mpd: "No such song"), and a path that is not there is
    /// the system's error with that path, as mpd words it. Looked at on the files queue (a slow
    /// disk must not stall the other clients), read as the player reads files.
    private func addLocalSong(_ uri: String, completion: @escaping (Result<[Track], MPDError>) -> Void) {
        guard let path = uri.hasPrefix("/") ? FilePath(uri)?.lexicallyNormalized : FileURI.path(fromFileURI: uri) else {
            return completion(.failure(MPDError(.argument, "Malformed URI")))
        }
        let box = UncheckedBox(completion)
        files.async { [queue, frontEnd] in
            var info = stat()
            let found = path.withCString { stat($0, &info) } == 0 ? nil : errno
            let isFile = (info.st_mode & S_IFMT) == S_IFREG
            queue.async {
                if let found {
                    let reason = String(cString: strerror(found))
                    return box.value(.failure(MPDError(.system, "Failed to access \(path.displayString): \(reason)")))
                }
                guard isFile else { return box.value(.failure(.noSuchSong)) }
                frontEnd.loadTracks(forURI: FileURI.uri(for: path)) { result in
                    guard case .success(let tracks) = result, tracks.count == 1, tracks[0].path == path else {
                        return box.value(.failure(.noSuchSong))
                    }
                    box.value(.success(tracks))
                }
            }
        }
    }
}

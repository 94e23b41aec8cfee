import FrontEnd
import JSON
import MusicDatabase
import PlayerCore

/// The changes a page asks for (docs/web.md): each one checked here, on the front-end's queue,
/// then run on the player as the event an MPRIS or MPD client's request would be.
extension WebFrontEnd {
    func playerRequest(_ body: JSONValue, reply: @escaping Reply) {
        let event: Event
        switch body["action"]?.string {
        case "play": event = .play
        case "pause": event = .pause
        case "toggle": event = .playPause
        case "stop": event = .stop
        case "next": event = .next
        case "previous": event = .previous
        case "seek":
            guard let seconds = body["position"]?.double, seconds.isFinite, seconds >= 0, seconds < 1e9 else {
                return reply(WebReply.error(400, "position is a number of seconds from 0"))
            }
            guard let current = facts.snapshot.current else { return reply(WebReply.error(409, "nothing is playing")) }
            event = .setPosition(current.id, Microseconds(seconds * 1_000_000))
        case "volume":
            guard let volume = body["volume"]?.double, volume.isFinite, (0...1).contains(volume) else {
                return reply(WebReply.error(400, "volume is a number from 0 to 1"))
            }
            event = .setVolume(volume)
        case "loop":
            guard let loop = body["loop"]?.string.flatMap(LoopStatus.init(rawValue:)) else {
                return reply(WebReply.error(400, "loop is None, Track or Playlist"))
            }
            event = .setLoopStatus(loop)
        case "shuffle":
            guard let shuffle = body["shuffle"]?.bool else { return reply(WebReply.error(400, "shuffle is true or false")) }
            event = .setShuffle(shuffle)
        default:
            return reply(WebReply.error(400, "action is play, pause, toggle, stop, next, previous, seek, volume, loop or shuffle"))
        }
        perform(event, reply: reply)
    }

    func queueRequest(_ body: JSONValue, reply: @escaping Reply) {
        switch body["action"]?.string {
        case "add":
            guard case .array(let values) = body["uris"] ?? .null, !values.isEmpty, values.count <= 1000 else {
                return reply(WebReply.error(400, "uris is a list of 1 to 1000 library URIs"))
            }
            let uris = values.compactMap(\.string)
            guard uris.count == values.count, let snapshot = library?.snapshot else {
                return reply(WebReply.error(400, "uris are the library's"))
            }
            var tracks: [Track] = []
            for uri in uris {
                if let song = snapshot.song(uri: uri) {
                    tracks.append(song.track())
                } else if let directory = snapshot.directory(uri: uri) {
                    tracks += snapshot.songs(matching: directory.isRoot ? .and([]) : .base(directory.uri)).map { $0.track() }
                } else {
                    return reply(WebReply.error(404, "not in the library: \(uri)"))
                }
            }
            add(tracks, at: body["at"]?.string, reply: reply)
        case "addAlbum":
            guard let album = body["album"]?.string, let snapshot = library?.snapshot else {
                return reply(WebReply.error(400, "which album? (album, artist)"))
            }
            let songs = albumTracks(album, artist: body["artist"]?.string, in: snapshot)
            guard !songs.isEmpty else { return reply(WebReply.error(404, "no such album")) }
            add(songs.map { $0.track() }, at: body["at"]?.string, reply: reply)
        case "play":
            guard let id = entryID(body["id"]) else { return reply(WebReply.error(404, "no such entry in the queue")) }
            perform(.playEntry(id), reply: reply)
        case "move":
            guard let id = entryID(body["id"]) else { return reply(WebReply.error(404, "no such entry in the queue")) }
            guard let to = body["to"]?.double.flatMap({ Int(exactly: $0) }), (0..<playerQueueCopy.count).contains(to) else {
                return reply(WebReply.error(400, "to is a place in the queue, from 0"))
            }
            perform(.moveEntries([id], toPosition: to), reply: reply)
        case "remove":
            guard case .array(let values) = body["ids"] ?? .null, !values.isEmpty, values.count <= 10_000 else {
                return reply(WebReply.error(400, "ids is a list of the queue's entries"))
            }
            let ids = values.compactMap(entryID)
            guard ids.count == values.count else { return reply(WebReply.error(404, "no such entry in the queue")) }
            perform(.removeEntries(ids), reply: reply)
        case "clear":
            perform(.replaceQueue([], play: false), reply: reply)
        case "save":
            guard let name = body["name"]?.string, Self.isPlaylistName(name) else {
                return reply(WebReply.error(400, "a playlist's name: 1 to 200 characters, no / and no control character"))
            }
            playerQueue.async { [self] in
                host.saveQueue(asPlaylist: name) { result in
                    switch result {
                    case .success: reply(WebReply.ok)
                    case .failure(let error): reply(WebReply.error(500, "not saved: \(error)"))
                    }
                }
            }
        default:
            reply(WebReply.error(400, "action is add, addAlbum, play, move, remove, clear or save"))
        }
    }

    /// Play now (after the current entry, at once), next (after the current entry) or at the end.
    private func add(_ tracks: [Track], at: String?, reply: @escaping Reply) {
        guard playerQueueCopy.count + tracks.count <= PlayerState.queueCapacity else {
            return reply(WebReply.error(409, "the queue is full"))
        }
        switch at ?? "end" {
        case "now": perform(.open(tracks), reply: reply)
        case "next":
            let place = facts.snapshot.current.map { QueuePlace.after($0.id) } ?? .atStart
            perform(.addTracks(tracks, at: place, makeCurrent: false), reply: reply)
        case "end": perform(.addTracks(tracks, at: .atEnd, makeCurrent: false), reply: reply)
        default: reply(WebReply.error(400, "at is now, next or end"))
        }
    }

    private func entryID(_ value: JSONValue?) -> EntryID? {
        guard let number = value?.double, let raw = UInt64(exactly: number) else { return nil }
        let id = EntryID(raw)
        return playerQueueCopy.contains(id) ? id : nil
    }

    static func isPlaylistName(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 200 && !name.contains("/") && !name.hasPrefix(".")
            && !name.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    func playlistRequest(_ body: JSONValue, reply: @escaping Reply) {
        guard body["action"]?.string == "load", let name = body["name"]?.string else {
            return reply(WebReply.error(400, "action is load, with a name"))
        }
        playerQueue.async { [self] in
            guard let playlist = host.playlists.first(where: { $0.name == name }) else {
                return reply(WebReply.error(404, "no such playlist"))
            }
            host.activatePlaylist(playlist) { result in
                switch result {
                case .success: reply(WebReply.ok)
                case .failure(let error): reply(WebReply.error(500, "not loaded: \(error)"))
                }
            }
        }
    }

    func listPlaylists(reply: @escaping Reply) {
        playerQueue.async { [self] in
            let items: [JSONValue] = host.playlists.map { ["name": .string($0.name)] }
            reply(WebReply.json(["items": .array(items)]))
        }
    }

    func stationRequest(_ body: JSONValue, reply: @escaping Reply) {
        guard let text = body["url"]?.string, text.utf8.count <= 4096 else {
            return reply(WebReply.error(400, "url is a station's http or https address"))
        }
        do throws(StreamURL.Problem) {
            let url = try StreamURL(validating: text)
            perform(.open([Track(stream: url)]), reply: reply)
        } catch {
            reply(WebReply.error(400, "not a station's address: \(error)"))
        }
    }
}

import MPDProtocol
import MusicDatabase
import PlayerCore

/// Reading the queue: `playlistinfo`, `playlistid`, `playlist`, `playlistfind`,
/// `playlistsearch`, `plchanges`, `plchangesposid` — each from the mirror as it is when the
/// command runs, written as the client reads (a queue holds up to 100,000 entries).
extension MPDServer {
    func runQueueListing(_ command: MPDCommand, for client: MPDClient, reply: @escaping Reply) {
        let queue = mirror.queue
        let describer = self.describer
        let tags = client.tags
        switch command {
        case .playlist:
            let entries = queue.entries
            reply(.stream(SequenceProducer(entries.indices.makeIterator()) { writer, index in
                writer.queueURI(position: index, uri: describer.uri(entries[index]))
            }))
        case .playlistInfo(let range):
            guard range.start <= queue.count else { return reply(.failure(.badSongIndex)) }
            reply(entries(range.clipped(to: queue.count), of: queue, tags: tags))
        case .playlistID(let id):
            guard let id else { return reply(entries(0..<queue.count, of: queue, tags: tags)) }
            guard let entry = entry(id: id), let position = queue.position(of: entry.id) else {
                return reply(.failure(.noSuchSong))
            }
            reply(entries(position..<position + 1, of: queue, tags: tags))
        case .playlistFind(let filter), .playlistSearch(let filter):
            let matcher: SongMatcher
            do throws(SongFilterError) {
                matcher = try SongMatcher(filter)
            } catch {
                return reply(.failure(MPDError(.argument, error.description)))
            }
            let library = describer.library
            let entries = queue.entries
            let matching = entries.indices.lazy.filter { index in
                let entry = entries[index]
                let uri = describer.uri(entry)
                let song = entry.track.path == nil ? nil : library?.song(uri: uri)
                return matcher.matches(QueueSong(entry: entry, uri: uri, song: song))
            }
            reply(.stream(SequenceProducer(matching.makeIterator()) { writer, index in
                writer.queueEntry(describer.info(entries[index]), at: self.slot(entries[index], index), tags: tags)
            }))
        case .playlistChanges(let version, let range), .playlistChangesPositions(let version, let range):
            let versions = mirror.versions
            let entries = queue.entries
            let changed = range.clipped(to: queue.count).lazy.filter { versions.hasChanged(entries[$0].id, since: version) }
            if case .playlistChanges = command {
                reply(.stream(SequenceProducer(changed.makeIterator()) { writer, index in
                    writer.queueEntry(describer.info(entries[index]), at: self.slot(entries[index], index), tags: tags)
                }))
            } else {
                reply(.stream(SequenceProducer(changed.makeIterator()) { writer, index in
                    writer.changedPosition(index, id: Int(clamping: entries[index].id.rawValue))
                }))
            }
        default:
            reply(.failure(MPDError(.unknown, "unknown command")))
        }
    }

    private func entries(_ range: Range<Int>, of queue: PlayQueue, tags: Set<TagKind>) -> CommandOutcome {
        let entries = queue.entries
        let describer = self.describer
        return .stream(SequenceProducer(range.makeIterator()) { writer, index in
            writer.queueEntry(describer.info(entries[index]), at: self.slot(entries[index], index), tags: tags)
        })
    }
}

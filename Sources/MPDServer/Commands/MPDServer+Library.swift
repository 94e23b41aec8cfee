import MPDProtocol
import MusicDatabase
import PlayerCore

/// The library: browse (`lsinfo`, `listall`, `listallinfo`, `listfiles`), query (`find`,
/// `search`, `list`, `count`), add what a query finds, update. Every query reads one immutable
/// snapshot, here on the MPD queue; long answers are written as the client reads them.
extension MPDServer {
    func runLibrary(_ command: MPDCommand, for client: MPDClient, reply: @escaping Reply) {
        let snapshot = library?.snapshot
        let describer = SongDescriber(library: snapshot)
        let tags = client.tags
        switch command {
        case .find(let query), .search(let query):
            let songs: [LibrarySong]
            do throws(MPDError) { songs = try self.songs(query, in: snapshot) } catch { return reply(.failure(error)) }
            // mpd's sorted answers lose their Format: lines (its sorted copies do not keep the
            // audio format); Aubade writes what mpd writes.
            let keepsFormat = query.sort == nil
            reply(.stream(SequenceProducer(songs.makeIterator()) { writer, song in
                var info = describer.info(song)
                if !keepsFormat { info.audioFormat = nil }
                writer.song(info, tags: tags)
            }))
        case .findAdd(let query, let position), .searchAdd(let query, let position):
            let songs: [LibrarySong]
            let place: QueuePlace
            do throws(MPDError) {
                songs = try self.songs(query, in: snapshot)
                place = try insertionPlace(position)
            } catch {
                return reply(.failure(error))
            }
            enqueue(songs.map { $0.track() }, at: place, reply: reply)
        case .count(let query):
            do throws(MPDError) { try check(query.filter, in: snapshot) } catch { return reply(.failure(error)) }
            let rows = snapshot?.counts(matching: query.filter, groupedBy: query.group) ?? []
            reply(answer { writer in
                for row in rows {
                    if let kind = query.group {
                        writer.countGroup(kind, row.group ?? "", songs: row.songs, playtime: row.playtime * 1_000_000)
                    } else {
                        writer.countTotals(songs: row.songs, playtime: row.playtime * 1_000_000)
                    }
                }
                if rows.isEmpty, query.group == nil { writer.countTotals(songs: 0, playtime: 0) }
            })
        case .list(let query):
            do throws(MPDError) { try check(query.filter, in: snapshot) } catch { return reply(.failure(error)) }
            switch query.target {
            case .file:
                let songs = snapshot?.songs(matching: query.filter ?? .and([])) ?? []
                reply(.stream(SequenceProducer(songs.makeIterator()) { writer, song in writer.line("file", song.uri) }))
            case .tag(let kind):
                let rows = snapshot?.values(of: kind, matching: query.filter, groupedBy: query.groups) ?? []
                reply(.stream(GroupedRowsProducer(rows: rows, kinds: query.groups + [kind])))
            }
        case .listAll(let uri), .listAllInfo(let uri):
            let full: Bool
            if case .listAllInfo = command { full = true } else { full = false }
            guard let snapshot else { return reply(uri.isEmpty ? Self.ok : .failure(.noSuchDirectory)) }
            if let song = snapshot.song(uri: uri) {
                return reply(answer { full ? $0.song(describer.info(song), tags: tags) : $0.line("file", song.uri) })
            }
            guard let directory = snapshot.directory(uri: uri) else { return reply(.failure(.noSuchDirectory)) }
            reply(.stream(SequenceProducer(snapshot.walk(from: directory).makeIterator()) { writer, entry in
                Self.write(entry, full: full, into: &writer, describer: describer, tags: tags)
            }))
        case .lsinfo(let uri) where Self.isLocalPath(uri), .listFiles(let uri) where Self.isLocalPath(uri):
            localListing(command, uri, for: client, tags: tags, reply: reply)
        case .lsinfo(let uri):
            lsinfo(uri, snapshot: snapshot, describer: describer, tags: tags, reply: reply)
        case .listFiles(let uri):
            listFiles(uri, snapshot: snapshot, reply: reply)
        case .update(let uri), .rescan(let uri):
            let rescan: Bool
            if case .rescan = command { rescan = true } else { rescan = false }
            guard let library else { return reply(.failure(MPDError(.noExist, "No database"))) }
            guard library.pendingJobs < MusicLibrary.maximumJobs else {
                return reply(.failure(MPDError(.updateAlready, "Update queue is full")))
            }
            guard let job = library.update(uri.isEmpty ? nil : uri, rescan: rescan) else {
                return reply(.failure(MPDError(.argument, "Malformed path")))
            }
            updatesNotFinished.insert(job)
            reply(answer { $0.line("updating_db", job) })
        default:
            reply(.failure(MPDError(.unknown, "unknown command")))
        }
    }

    /// The songs of a `find`/`search` query, sorted and windowed.
    private func songs(_ query: DatabaseQuery, in snapshot: LibrarySnapshot?) throws(MPDError) -> [LibrarySong] {
        try check(query.filter, in: snapshot)
        guard let snapshot else { return [] }
        let window = query.window.map { $0.start..<($0.end ?? Int.max) }
        return snapshot.songs(matching: query.filter, sort: query.sort, window: window)
    }

    /// mpd's answers to a filter that cannot run: a bad regular expression, a `base` that is
    /// no folder of the library.
    private func check(_ filter: SongFilter?, in snapshot: LibrarySnapshot?) throws(MPDError) {
        guard let filter else { return }
        do throws(SongFilterError) {
            try filter.validate()
        } catch {
            throw MPDError(.argument, error.description)
        }
        for base in filter.bases {
            guard let snapshot, snapshot.directory(uri: base) != nil || snapshot.song(uri: base) != nil else {
                throw .noSuchDirectory
            }
        }
    }

    static func write(_ entry: LibraryEntry, full: Bool, into writer: inout ResponseWriter, describer: SongDescriber,
                      tags: Set<TagKind>) {
        switch entry {
        case .directory(let uri, let modified):
            full ? writer.directory(uri, lastModified: modified) : writer.line("directory", uri)
        case .song(let song):
            full ? writer.song(describer.info(song), tags: tags) : writer.line("file", song.uri)
        case .playlist(let uri, let modified):
            full ? writer.playlist(uri, lastModified: modified) : writer.line("playlist", uri)
        }
    }

    private func lsinfo(_ uri: String, snapshot: LibrarySnapshot?, describer: SongDescriber, tags: Set<TagKind>,
                        reply: @escaping Reply) {
        var entries: [LibraryEntry] = []
        if let snapshot {
            if let song = snapshot.song(uri: uri) {
                return reply(answer { $0.song(describer.info(song), tags: tags) })
            }
            guard let directory = snapshot.directory(uri: uri) else { return reply(.failure(.noSuchDirectory)) }
            entries = snapshot.contents(of: directory)
        } else if !uri.isEmpty {
            return reply(.failure(.noSuchDirectory))
        }
        guard uri.isEmpty else {
            return reply(.stream(SequenceProducer(entries.makeIterator()) { writer, entry in
                Self.write(entry, full: true, into: &writer, describer: describer, tags: tags)
            }))
        }
        // The root also lists the stored playlists, after everything else, as mpd does.
        let box = UncheckedBox(reply)
        playlists.list(on: files, replyOn: queue) { stored in
            let all = entries + stored.map { LibraryEntry.playlist(uri: $0.name, lastModified: $0.modified) }
            box.value(.stream(SequenceProducer(all.makeIterator()) { writer, entry in
                Self.write(entry, full: true, into: &writer, describer: describer, tags: tags)
            }))
        }
    }
}

/// `list TAG group G1 group G2…`: each row's group values are written when they differ from
/// the row before (an outer one changing writes the inner ones again), then the value.
struct GroupedRowsProducer: ResponseProducer {
    let rows: [[String]]
    let kinds: [TagKind]
    private var next = 0
    private var previous: [String]?

    init(rows: [[String]], kinds: [TagKind]) {
        self.rows = rows
        self.kinds = kinds
    }

    mutating func produce(into writer: inout ResponseWriter, budget: Int) -> Bool {
        let start = writer.bytes.count
        while next < rows.count, writer.bytes.count - start < budget {
            let row = rows[next]
            var changed = previous == nil
            for (level, value) in row.enumerated() where level < kinds.count {
                let isValue = level == row.count - 1
                if !changed, let previous, level < previous.count, previous[level] != value { changed = true }
                if changed || isValue { writer.tag(kinds[level], value) }
            }
            previous = row
            next += 1
        }
        return next == rows.count
    }
}

extension SongFilter {
    /// Every folder a `base` of this filter names.
    var bases: [String] {
        switch self {
        case .base(let uri): return [uri]
        case .not(let inner): return inner.bases
        case .and(let filters): return filters.flatMap(\.bases)
        default: return []
        }
    }
}

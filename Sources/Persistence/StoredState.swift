import PlayerCore

/// `state.json` as written on disk, version 1:
/// `{"version": 1, "tracks": [{path | uri, title, artists, album, albumArtists, genres,
/// trackNumber, discNumber, date, length}], "currentIndex", "position", "volume",
/// "loopStatus", "shuffle", "playOrder"}`.
///
/// A track's file is `path` (plain text) when its name is UTF-8, else `uri`, its `file://`
/// URI, whose percent escapes keep the exact bytes (JSON text cannot hold a Latin-1 byte);
/// see `StoredPath`. Files written before names were bytes have `path` only.
///
/// The tags are stored with the paths so a restore of 10,000 tracks needs no file to be read
/// again. Absent optionals are simply left out. Times are microseconds, as in PlayerCore.
struct StoredState: Codable {
    static let currentVersion = 1

    var version: Int
    var tracks: [StoredTrack]
    var currentIndex: Int?
    var position: Int64
    var volume: Double
    var loopStatus: String
    var shuffle: Bool
    var playOrder: [Int]

    init(_ memento: PlayerMemento) {
        version = Self.currentVersion
        tracks = memento.tracks.map(StoredTrack.init)
        currentIndex = memento.currentIndex
        position = memento.position
        // JSON has no NaN or infinity; a volume that is not a number is no volume at all.
        volume = memento.volume.isFinite ? memento.volume : 1
        loopStatus = memento.loopStatus.rawValue
        shuffle = memento.shuffle
        playOrder = memento.playOrder
    }

    /// The memento, or why the stored values do not make one (an inconsistent file is as
    /// corrupt as an unreadable one: restoring half of it could play the wrong track).
    func memento() -> Result<PlayerMemento, StateInconsistency> {
        guard let loop = LoopStatus(rawValue: loopStatus) else {
            return .failure(StateInconsistency("unknown loopStatus \"\(loopStatus)\""))
        }
        if let currentIndex, !tracks.indices.contains(currentIndex) {
            return .failure(StateInconsistency("currentIndex \(currentIndex) is outside the \(tracks.count) tracks"))
        }
        guard position >= 0 else { return .failure(StateInconsistency("negative position \(position)")) }
        guard volume.isFinite, volume >= 0 else { return .failure(StateInconsistency("volume \(volume) is not a volume")) }
        // Empty means "no particular order"; anything else must be a permutation of the tracks.
        if !playOrder.isEmpty {
            var seen = [Bool](repeating: false, count: tracks.count)
            guard playOrder.count == tracks.count else {
                return .failure(StateInconsistency("playOrder has \(playOrder.count) entries for \(tracks.count) tracks"))
            }
            for index in playOrder {
                guard seen.indices.contains(index), !seen[index] else {
                    return .failure(StateInconsistency("playOrder is not a permutation of the tracks (entry \(index))"))
                }
                seen[index] = true
            }
        }
        var converted: [Track] = []
        converted.reserveCapacity(tracks.count)
        for (index, stored) in tracks.enumerated() {
            guard stored.path != nil || stored.uri != nil else {
                return .failure(StateInconsistency("track \(index) has no \"path\" (nor \"uri\")"))
            }
            guard let path = StoredPath.path(text: stored.path, uri: stored.uri), path.isAbsolute else {
                return .failure(StateInconsistency("track \(index) has no absolute path"))
            }
            if let length = stored.length, length < 0 {
                return .failure(StateInconsistency("track \(index) has a negative length"))
            }
            converted.append(stored.track(at: path))
        }
        return .success(PlayerMemento(tracks: converted, currentIndex: currentIndex, position: position,
                                      volume: volume, loopStatus: loop, shuffle: shuffle, playOrder: playOrder))
    }
}

/// Why a well-formed `state.json` still cannot be restored.
struct StateInconsistency: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}

/// One queued track in `state.json`: `Track` with stable key names, so renaming a property in
/// PlayerCore cannot silently change the file format.
struct StoredTrack: Codable {
    /// The file's path, when its bytes are UTF-8.
    var path: String?
    /// The file's `file://` URI, when its path is not UTF-8.
    var uri: String?
    var title: String?
    var artists: [String]
    var album: String?
    var albumArtists: [String]
    var genres: [String]
    var trackNumber: Int?
    var discNumber: Int?
    var date: String?
    var length: Int64?

    init(_ track: Track) {
        (path, uri) = StoredPath.fields(for: track.path)
        title = track.title
        artists = track.artists
        album = track.album
        albumArtists = track.albumArtists
        genres = track.genres
        trackNumber = track.trackNumber
        discNumber = track.discNumber
        date = track.date
        length = track.length
    }

    func track(at path: FilePath) -> Track {
        Track(path: path, title: title, artists: artists, album: album, albumArtists: albumArtists,
              genres: genres, trackNumber: trackNumber, discNumber: discNumber, date: date, length: length)
    }
}

/// `position.json`: the small file rewritten about once a second while playing, so a
/// `kill -9` loses at most a second without rewriting the whole queue that often.
struct StoredPosition: Codable {
    var version: Int
    var currentIndex: Int?
    /// The current track's file, as `StoredTrack` keeps it: text when UTF-8, else a URI.
    var trackPath: String?
    var trackURI: String?
    var position: Int64

    init(version: Int, currentIndex: Int?, track: FilePath?, position: Int64) {
        self.version = version
        self.currentIndex = currentIndex
        (trackPath, trackURI) = track.map(StoredPath.fields(for:)) ?? (nil, nil)
        self.position = position
    }

    /// The current track's file, or `nil` if none was saved or the fields make no path.
    var track: FilePath? { StoredPath.path(text: trackPath, uri: trackURI) }
}

/// How a `FilePath` is kept in JSON, which holds text only: the text itself when the bytes
/// are UTF-8 (readable, and what older files hold), else the `file://` URI (bytes escaped).
enum StoredPath {
    static func fields(for path: FilePath) -> (text: String?, uri: String?) {
        if let text = String(validating: path.bytes, as: UTF8.self) { return (text, nil) }
        return (nil, FileURI.uri(for: path))
    }

    /// The URI wins when both are there; `nil` for neither, a malformed URI or a NUL.
    static func path(text: String?, uri: String?) -> FilePath? {
        if let uri { return FileURI.path(fromFileURI: uri) }
        return text.flatMap(FilePath.init)
    }
}

/// Just the version, read first so a file from another version is reported as such rather
/// than as whatever field it happens to lack.
struct StoredVersion: Decodable {
    var version: Int
}

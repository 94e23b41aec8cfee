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
///
/// `sequence` (also in `position.json`) orders the two files: `position.json` wins only when it
/// was written after this file. Files from before it existed have none.
///
/// What is read is checked: structure that does not add up (an index outside the queue, a
/// play order that is not a permutation) makes the file corrupt; numbers out of range are
/// saturated so the queue is kept (a negative or absurd position becomes 0, an absurd length
/// or track number unknown, a volume outside 0…1.5 the default 1).
struct StoredState: Codable {
    static let currentVersion = 1
    /// The longest time kept from the file, 30 days in µs: longer than any track, and small
    /// enough that µs × any sample rate stays far inside Int64.
    static let maximumTime: Int64 = 30 * 86_400 * 1_000_000

    var version: Int
    var sequence: UInt64?
    var tracks: [StoredTrack]
    var currentIndex: Int?
    var position: Int64
    var volume: Double
    var loopStatus: String
    var shuffle: Bool
    var playOrder: [Int]

    init(_ memento: PlayerMemento, sequence: UInt64) {
        version = Self.currentVersion
        self.sequence = sequence
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
            if let url = stored.url {
                guard let stream = try? StreamURL(validating: url) else {
                    return .failure(StateInconsistency("track \(index) has a \"url\" that is not an http(s) address"))
                }
                converted.append(stored.track(at: .stream(stream)))
                continue
            }
            guard stored.path != nil || stored.uri != nil else {
                return .failure(StateInconsistency("track \(index) has no \"path\" (nor \"uri\" or \"url\")"))
            }
            guard let path = StoredPath.path(text: stored.path, uri: stored.uri), path.isAbsolute else {
                return .failure(StateInconsistency("track \(index) has no absolute path"))
            }
            converted.append(stored.track(at: .file(path)))
        }
        let saved = position
        let restoredPosition = currentIndex.map { Self.position(saved, in: converted[$0]) }
            ?? ((0...Self.maximumTime).contains(saved) ? saved : 0)
        // We never write a volume outside the player's range: one is garbage, and the default
        // is kinder to the ears than either end of the range.
        let restoredVolume = (PlayerState.minimumVolume...PlayerState.maximumVolume).contains(volume) ? volume : 1
        return .success(PlayerMemento(tracks: converted, currentIndex: currentIndex, position: restoredPosition,
                                      volume: restoredVolume, loopStatus: loop, shuffle: shuffle, playOrder: playOrder))
    }

    /// `position` if it can be a place in `track`, else 0 (the start of the track): negative,
    /// past the track's known length, or beyond `maximumTime`.
    static func position(_ position: Int64, in track: Track) -> Int64 {
        guard position >= 0, position <= (track.length ?? maximumTime) else { return 0 }
        return position
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
    /// A stream's http(s) address (instead of a path).
    var url: String?
    var title: String?
    var artists: [String]
    var album: String?
    var albumArtists: [String]
    var genres: [String]
    var trackNumber: Int?
    var discNumber: Int?
    var date: String?
    var length: Int64?
    /// Present (true) only for an estimated length, so that a restored entry still gets its
    /// exact length measured when it plays; older files lack it (exact).
    var lengthIsEstimate: Bool?
    var replayGain: StoredReplayGain?

    init(_ track: Track) {
        switch track.location {
        case .file(let filePath): (path, uri) = StoredPath.fields(for: filePath)
        case .stream(let stream): url = stream.text
        }
        title = track.title
        artists = track.artists
        album = track.album
        albumArtists = track.albumArtists
        genres = track.genres
        trackNumber = track.trackNumber
        discNumber = track.discNumber
        date = track.date
        length = track.length
        lengthIsEstimate = track.lengthIsEstimate ? true : nil
        replayGain = track.replayGain.map(StoredReplayGain.init)
    }

    /// The track, with numbers no real file has made unknown: a length outside
    /// 0…`StoredState.maximumTime`, track and disc numbers outside 0…Int32.max (MPRIS sends
    /// them as int32).
    func track(at location: MediaLocation) -> Track {
        var track = Track(location: location, title: title, artists: artists, album: album, albumArtists: albumArtists,
                          genres: genres, trackNumber: trackNumber.flatMap(Self.number), discNumber: discNumber.flatMap(Self.number),
                          date: date, length: length.flatMap { (0...StoredState.maximumTime).contains($0) ? $0 : nil })
        track.lengthIsEstimate = lengthIsEstimate == true && track.length != nil
        track.replayGain = replayGain?.tags
        return track
    }

    private static func number(_ value: Int) -> Int? {
        (0...Int(Int32.max)).contains(value) ? value : nil
    }
}

/// A track's ReplayGain tags in the state file; each value is checked again on load (a gain
/// outside ±60 dB or a NaN is dropped), as the file is outside input.
struct StoredReplayGain: Codable, Equatable {
    var trackGain: Double?
    var trackPeak: Double?
    var albumGain: Double?
    var albumPeak: Double?

    init(_ tags: ReplayGainTags) {
        (trackGain, trackPeak, albumGain, albumPeak) = (tags.trackGain, tags.trackPeak, tags.albumGain, tags.albumPeak)
    }

    var tags: ReplayGainTags? {
        func gain(_ value: Double?) -> Double? { value.flatMap { ReplayGainTags.plausibleGain.contains($0) ? $0 : nil } }
        func peak(_ value: Double?) -> Double? { value.flatMap { ReplayGainTags.plausiblePeak.contains($0) ? $0 : nil } }
        let tags = ReplayGainTags(trackGain: gain(trackGain), trackPeak: peak(trackPeak),
                                  albumGain: gain(albumGain), albumPeak: peak(albumPeak))
        return tags.isEmpty ? nil : tags
    }
}

/// `position.json`: the small file rewritten about once a second while playing, so a
/// `kill -9` loses at most a second without rewriting the whole queue that often.
struct StoredPosition: Codable {
    var version: Int
    var sequence: UInt64?
    var currentIndex: Int?
    /// The current track's file, as `StoredTrack` keeps it: text when UTF-8, else a URI.
    var trackPath: String?
    var trackURI: String?
    var position: Int64

    init(version: Int, sequence: UInt64?, currentIndex: Int?, track: FilePath?, position: Int64) {
        self.version = version
        self.sequence = sequence
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

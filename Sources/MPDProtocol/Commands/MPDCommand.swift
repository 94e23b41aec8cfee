public import MusicDatabase
public import PlayerCore

/// A request the command table accepted, with its arguments parsed as mpd 0.23 parses them:
/// what the server carries out. One case per command (the mpd name is in `name`).
///
/// Positions given relative to the current song (`InsertPosition`, `MoveDestination`) are
/// resolved by the server when it runs the command, against the queue of that moment; ranges
/// and positions are checked against the list they apply to by the server too (mpd's
/// "Bad song index"). Times are microseconds, whole milliseconds as mpd keeps them.
public enum MPDCommand: Sendable, Equatable {
    // MARK: The connection
    /// `close`: flush, then close the connection.
    case close
    /// `kill`: stop the daemon (mpd quits; a front-end may well refuse).
    case kill
    case ping
    /// `commands`: the names this client may use (`CommandTable.available(to:)`).
    case commands
    /// `notcommands`: the names it may not.
    case notCommands
    /// `password SECRET`: on a match, the client gets that password's permissions; otherwise
    /// `MPDError.incorrectPassword`.
    case password(String)
    /// `binarylimit SIZE`: the most bytes of one `binary:` chunk, 64 through
    /// `MPDCommand.binaryLimitMaximum`.
    case binaryLimit(Int)
    case tagTypes(TagTypesRequest)
    /// `idle [SUBSYSTEM…]`: wait for a change in one of these (all without arguments).
    case idle(IdleSubsystems)

    // MARK: Status
    case status
    case stats
    case currentSong
    /// `getvol`: `volume: N`, nothing without a mixer.
    case getVolume
    case replayGainStatus

    // MARK: Playback
    /// `play [POS]`: nil resumes or starts at the current song (mpd's -1 means the same);
    /// other values, negative ones included, are positions the server checks.
    case play(position: Int?)
    /// `playid [ID]`: as `play`, by song id.
    case playID(Int?)
    /// `pause [0|1]`: nil toggles.
    case pause(Bool?)
    case stop
    case next
    case previous
    /// `seek POS TIME`.
    case seek(position: Int, to: Microseconds)
    /// `seekid ID TIME`.
    case seekID(Int, to: Microseconds)
    /// `seekcur [+|-]TIME`.
    case seekCurrent(SeekTarget)

    // MARK: Options and volume
    case setRepeat(Bool)
    case setRandom(Bool)
    case setSingle(SingleMode)
    case setConsume(Bool)
    /// `crossfade SECONDS`.
    case setCrossfade(seconds: Int)
    case setReplayGainMode(ReplayGainMode)
    /// `setvol 0…100`.
    case setVolume(Int)
    /// `volume -100…100`: relative; the server clamps to 0…100 (`MPDError.noMixer` without one).
    case changeVolume(by: Int)

    // MARK: The queue
    /// `add URI [POS]` (`add /` is the whole library, as in mpd: the URI is then "").
    case add(uri: String, position: InsertPosition?)
    /// `addid URI [POS]`: answers `Id: N`.
    case addID(uri: String, position: InsertPosition?)
    case clear
    case delete(SongRange)
    case deleteID(Int)
    /// `move RANGE TO` (never open-ended).
    case move(SongRange, to: MoveDestination)
    /// `moveid ID TO`: the server finds the id's position (`MPDError.noSuchSong`), then resolves.
    case moveID(Int, to: MoveDestination)
    case swap(Int, Int)
    case swapID(Int, Int)
    /// `shuffle [RANGE]` (all without one).
    case shuffle(SongRange)
    /// `prio PRIORITY RANGE…`: 0…255.
    case setPriority(Int, ranges: [SongRange])
    /// `prioid PRIORITY ID…`.
    case setPriorityByID(Int, ids: [Int])
    /// `playlist`: `N:file: URI` lines.
    case playlist
    /// `playlistinfo [RANGE]` (all without one).
    case playlistInfo(SongRange)
    /// `playlistid [ID]`: nil is the whole queue.
    case playlistID(Int?)
    /// `playlistfind FILTER`: exact, case-sensitive.
    case playlistFind(SongFilter)
    /// `playlistsearch FILTER`: case-folded.
    case playlistSearch(SongFilter)
    /// `plchanges VERSION [RANGE]`: songs changed since that queue version.
    case playlistChanges(since: UInt32, SongRange)
    /// `plchangesposid VERSION [RANGE]`: `cpos:`/`Id:` of those songs.
    case playlistChangesPositions(since: UInt32, SongRange)

    // MARK: The library
    case find(DatabaseQuery)
    case search(DatabaseQuery)
    case findAdd(DatabaseQuery, position: InsertPosition?)
    case searchAdd(DatabaseQuery, position: InsertPosition?)
    case count(CountQuery)
    case list(ListQuery)
    /// `listall [URI]`: "" is the root.
    case listAll(String)
    case listAllInfo(String)
    case listFiles(String)
    /// `lsinfo [URI]` ("" is the root; `lsinfo /` too, as in mpd).
    case lsinfo(String)
    /// `update [PATH]`: "" is the whole library; the path is a safe local one.
    case update(String)
    case rescan(String)
    /// `albumart URI OFFSET`: the cover file beside the song, from OFFSET.
    case albumArt(uri: String, offset: Int)
    /// `readpicture URI OFFSET`: the picture inside the file, from OFFSET.
    case readPicture(uri: String, offset: Int)
    case urlHandlers
    case decoders

    // MARK: Stored playlists
    case listPlaylist(String)
    case listPlaylistInfo(String)
    case listPlaylists
    /// `load NAME [RANGE [POS]]`.
    case load(String, range: SongRange, position: InsertPosition?)
    /// `playlistadd NAME URI [POS]`: POS within the playlist ("Bad position" past its end).
    case playlistAdd(String, uri: String, position: Int?)
    case playlistClear(String)
    case playlistDelete(String, SongRange)
    case playlistMove(String, from: Int, to: Int)
    case rename(String, to: String)
    case remove(String)
    case save(String)

    // MARK: Outputs and partitions
    case outputs
    case enableOutput(Int)
    case disableOutput(Int)
    case toggleOutput(Int)
    case listPartitions
}

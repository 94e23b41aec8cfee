import MPDProtocol
import PlayerCore

/// Carrying out one command: each group of commands has a file of its own.
extension MPDServer {
    typealias Reply = (CommandOutcome) -> Void

    /// Runs `command` for `client`; `reply` runs once, on this queue, now or later.
    func run(_ command: MPDCommand, for client: MPDClient, reply: @escaping Reply) {
        switch command {
        case .close: reply(.close)
        case .ping: reply(.answer(ResponseWriter()))
        case .kill, .commands, .notCommands, .password, .binaryLimit, .tagTypes, .idle:
            runConnection(command, for: client, reply: reply)
        case .status, .stats, .currentSong, .getVolume, .replayGainStatus, .outputs, .enableOutput, .disableOutput,
             .toggleOutput, .listPartitions, .urlHandlers, .decoders:
            runStatus(command, for: client, reply: reply)
        case .play, .playID, .pause, .stop, .next, .previous, .seek, .seekID, .seekCurrent, .setRepeat, .setRandom,
             .setSingle, .setConsume, .setCrossfade, .setReplayGainMode, .setVolume, .changeVolume:
            runPlayback(command, reply: reply)
        case .add, .addID, .clear, .delete, .deleteID, .move, .moveID, .swap, .swapID, .shuffle, .setPriority,
             .setPriorityByID:
            runQueueEdit(command, for: client, reply: reply)
        case .playlist, .playlistInfo, .playlistID, .playlistFind, .playlistSearch, .playlistChanges,
             .playlistChangesPositions:
            runQueueListing(command, for: client, reply: reply)
        case .find, .search, .findAdd, .searchAdd, .count, .list, .listAll, .listAllInfo, .listFiles, .lsinfo,
             .update, .rescan:
            runLibrary(command, for: client, reply: reply)
        case .albumArt, .readPicture:
            runPicture(command, for: client, reply: reply)
        case .listPlaylist, .listPlaylistInfo, .listPlaylists, .load, .playlistAdd, .playlistClear, .playlistDelete,
             .playlistMove, .rename, .remove, .save:
            runStoredPlaylist(command, for: client, reply: reply)
        }
    }

    /// An answer made of lines written by `body`.
    func answer(_ body: (inout ResponseWriter) -> Void) -> CommandOutcome {
        var writer = ResponseWriter()
        body(&writer)
        return .answer(writer)
    }

    static var ok: CommandOutcome { .answer(ResponseWriter()) }

    /// Sends `event` to the player and answers once its turn is in the mirror.
    func perform(_ event: Event, reply: @escaping Reply) {
        perform([event], reply: reply)
    }

    /// Sends the events one after the other (each once the one before has turned) and answers
    /// after the last: one command of mpd's that is two steps of Aubade's player.
    func perform(_ events: [Event], reply: @escaping Reply) {
        guard let first = events.first else { return reply(Self.ok) }
        let box = UncheckedBox(reply)
        frontEnd.perform(first) { [weak self] _ in
            guard let self else { return }
            perform(Array(events.dropFirst()), reply: box.value)
        }
    }

    /// The song descriptions of the moment: the library's newest snapshot.
    var describer: SongDescriber { SongDescriber(library: library?.snapshot) }
}

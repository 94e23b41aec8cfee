public import FrontEnd
internal import DBusKit
internal import PlayerCore

/// MPRIS as one front-end of the player: each turn becomes its signals (Seeked, the TrackList
/// signals, Aubade's audio-session signals, in the order the reducer asked), then one
/// PropertiesChanged per interface with exactly what differs.
extension MPRISService: PlayerFrontEnd {
    public func playerDidTurn(_ turn: PlayerTurn) {
        for effect in turn.effects {
            switch effect {
            case .seeked(let position): announceSeeked(position)
            case .routeChanged(let change): announceRouteChange(change)
            case .interruptionBegan: announceInterruptionBegan()
            case .interruptionEnded(let shouldResume): announceInterruptionEnded(shouldResume: shouldResume)
            case .trackList(let change): announceTrackListChange(change, queue: turn.queue, current: turn.after.current?.id)
            case .categoryDecision(let decision): announceCategoryDecision(decision)
            default: break
            }
        }
        announceChanges(from: turn.before, to: turn.after)
    }

    public func playlistsDidChange(_ change: PlaylistsChange) {
        announcePlaylistChanges(from: change.before, to: change.after,
                                activeBefore: change.activeBefore, activeNow: change.activeAfter)
    }
}

extension DBusError {
    /// A front-end's failure as the D-Bus error MPRIS clients expect: a bad or unknown argument
    /// is InvalidArgs, anything else Failed.
    init(_ error: FrontEndError) {
        switch error {
        case .invalidArgument(let text), .notFound(let text): self = .invalidArgs(text)
        case .failed(let text): self = .failed(text)
        }
    }
}

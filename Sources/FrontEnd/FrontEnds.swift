/// The front-ends attached to the one player, told of every turn in the order they attached.
///
/// mpv's `player/client.h` is the model: one event stream broadcast to every client, so MPRIS,
/// MPD and whatever comes next see the same changes at the same moment, and a new front-end is
/// a new attachment, not a change to the player. Used on the player's queue only.
public final class FrontEnds {
    private var attached: [any PlayerFrontEnd] = []

    public init() {}

    /// Adds a front-end; it hears of every turn from now on.
    public func attach(_ frontEnd: any PlayerFrontEnd) {
        attached.append(frontEnd)
    }

    public func detach(_ frontEnd: any PlayerFrontEnd) {
        attached.removeAll { $0 === frontEnd }
    }

    public var isEmpty: Bool { attached.isEmpty }

    public func playerDidTurn(_ turn: PlayerTurn) {
        for frontEnd in attached { frontEnd.playerDidTurn(turn) }
    }

    public func playlistsDidChange(_ change: PlaylistsChange) {
        for frontEnd in attached { frontEnd.playlistsDidChange(change) }
    }
}

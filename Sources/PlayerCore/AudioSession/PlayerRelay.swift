/// MPRIS names that are not players but relays of other players.
///
/// `playerctld` (playerctl's daemon, which many media-key and status-bar setups send their keys
/// to) owns `org.mpris.MediaPlayer2.playerctld` and mirrors whichever player was active last —
/// often Aubade itself. Taken for a player, it "starts playing" whenever Aubade does: the
/// session category paused Aubade for it, then resumed it when the relay followed, over and
/// over (seen with Debian's playerctld 2.4.1); and a Pause sent to it reaches the player behind
/// it, Aubade included. Neither the category nor the guard acts on a relay: the players behind
/// it are followed under their own names.
public enum PlayerRelay {
    /// The names playerctld takes (it treats the same prefix as its own, playerctl-daemon.c).
    static let prefixes = ["org.mpris.MediaPlayer2.playerctld"]

    public static func isRelay(_ busName: String) -> Bool {
        prefixes.contains { busName == $0 || busName.hasPrefix($0 + ".") }
    }
}

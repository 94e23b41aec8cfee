public import DBusKit
public import PlayerCore

/// What the MPRIS adapter needs from the daemon: the player's state, and a way to hand it events.
///
/// All calls come on the D-Bus connection's queue, which is also where the player runs, so a
/// method call becomes an event, a turn of the reducer and its announcements, then the reply.
public protocol MPRISHost: AnyObject {
    var snapshot: PlayerSnapshot { get }
    /// The extrapolated position of the current track, now.
    var position: Microseconds { get }
    /// Runs one turn of the player (the host announces the changes through `MPRISService`).
    func handle(_ event: Event)
    /// The tracks an OpenUri argument stands for; a URI that cannot be played throws the
    /// D-Bus error to reply with, and changes nothing.
    func tracks(forURI uri: String) throws(DBusError) -> [Track]
}

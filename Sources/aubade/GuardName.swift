import DBusKit
import MPRIS

/// Who guards the other players: the one owner of `org.aubade.Guard`. Two guards would each
/// send Pause, and a player that treats Pause as a toggle would play again.
///
/// The name is asked for with queueing: a second guard (`aubade guard` beside `aubade serve`,
/// or the other way round) waits in the bus's queue and takes over, told by NameAcquired, when
/// the first one stops. Core queue only, like the connection it uses.
final class GuardName {
    private let connection: Connection
    private(set) var isOwned = false
    private var isRequested = false
    /// Called when ownership changes after `claim()` (the guard turns on or off).
    var onChange: ((Bool) -> Void)?

    init(connection: Connection) {
        self.connection = connection
    }

    /// Asks for the name (once); true when we own it now, false while another guard holds it.
    @discardableResult
    func claim() -> Bool {
        guard !isRequested else { return isOwned }
        isRequested = true
        switch try? connection.requestName(GuardObject.busName, doNotQueue: false) {
        case .primaryOwner?, .alreadyOwner?:
            isOwned = true
        case .inQueue?:
            Log.notice("another process guards the other players (it owns \(GuardObject.busName)): "
                       + "waiting to take over when it stops")
        case .exists?, nil:
            Log.warning("could not ask for \(GuardObject.busName): the other players are not guarded")
        }
        return isOwned
    }

    /// Gives the name up (and leaves the queue).
    func release() {
        guard isRequested else { return }
        isRequested = false
        try? connection.releaseName(GuardObject.busName)
        set(false)
    }

    /// NameAcquired / NameLost for our name; false for any other message.
    @discardableResult
    func receive(_ message: Message) -> Bool {
        guard message.interface == "org.freedesktop.DBus", message.member == "NameAcquired" || message.member == "NameLost",
              (try? message.arguments())?.first?.asString == GuardObject.busName else { return false }
        let acquired = message.member == "NameAcquired"
        if acquired, isRequested, !isOwned { Log.info("the other guard stopped: guarding the other players now") }
        set(acquired && isRequested)
        return true
    }

    private func set(_ owned: Bool) {
        guard owned != isOwned else { return }
        isOwned = owned
        onChange?(owned)
    }
}

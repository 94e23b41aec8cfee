import Configuration
import DBusKit
import Dispatch
import Glibc

/// Which session bus the client verbs talk to: the caller's (DBUS_SESSION_BUS_ADDRESS, or the
/// systemd user bus at $XDG_RUNTIME_DIR/bus, which libdbus finds by itself), else the private
/// one `make run` started and announced (`PrivateSession`). With neither, a clear error rather
/// than libdbus's "Unable to autolaunch a dbus-daemon without a $DISPLAY".
enum SessionBus {
    /// The variables that decide it.
    private static var environment: [String: String] {
        var values: [String: String] = [:]
        for key in ["DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR", "PULSE_SERVER"] {
            if let value = getenv(key) { values[key] = String(cString: value) }
        }
        return values
    }

    static func locate() throws(DBusError) -> Connection.Bus {
        let environment = self.environment
        if let address = environment["DBUS_SESSION_BUS_ADDRESS"], !address.isEmpty { return .session }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            var info = stat()
            if stat(runtime + "/bus", &info) == 0, info.st_mode & S_IFMT == S_IFSOCK { return .session }
        }
        let path = PrivateSession.announcementPath(environment: environment, uid: getuid())
        do throws(PrivateSession.Problem) {
            let session = try PrivateSession.read(at: path, uid: getuid())
            // `aubade route --all` and the like ask the sound server too: the same session's.
            if environment["PULSE_SERVER"] == nil, let server = session.soundServer { setenv("PULSE_SERVER", server, 1) }
            return .address(session.busAddress)
        } catch {
            throw DBusError.failed("no session bus: DBUS_SESSION_BUS_ADDRESS is not set, and \(error) "
                                   + "(start aubade with `make run`, or run this inside your desktop session)")
        }
    }

    /// Connects to the located bus; a private session that is gone is said so.
    static func connect(queue: DispatchQueue) throws(DBusError) -> Connection {
        let bus = try locate()
        do {
            return try Connection(bus: bus, queue: queue)
        } catch {
            if case .address = bus {
                throw DBusError.failed("the private session `make run` announced in "
                                       + PrivateSession.announcementPath(environment: environment, uid: getuid())
                                       + " is gone (\(error.message)); is `make run` still running?")
            }
            throw error
        }
    }
}

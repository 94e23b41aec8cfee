internal import CDBus
import Dispatch
import Handoff

/// A connection to a message bus (`DBusConnection`), driven by a serial `DispatchQueue`.
///
/// Threads: libdbus never runs a loop of its own here. Each socket watch and timeout of the
/// connection is a dispatch source on `queue`, and libdbus' dispatch-status and wakeup
/// functions schedule a dispatch on `queue`; so incoming messages are handled, and outgoing
/// ones written, as soon as the socket allows — not after a polling timeout. Every callback
/// (object handlers, `onSignal`, `onDisconnect`, call replies) runs on `queue`, and every
/// method must be called on `queue` (checked in debug builds). Initialisation may happen on
/// any thread; the two callback properties may be set from any thread (they are locked).
///
/// Lifetime: call `close()` (on `queue`) when done; after it no callback runs. Handlers that
/// capture the connection form a cycle that `close()` breaks. If the last reference goes
/// without `close()`, deinit tears the connection down the same way.
///
/// `@unchecked Sendable`: libdbus is initialised thread-safe (`dbus_threads_init_default`),
/// the Swift-side mutable state is behind `LockedState`, and all other use is confined to
/// `queue` by contract.
public final class Connection: @unchecked Sendable {
    /// Which bus to connect to.
    public enum Bus: Sendable, Equatable {
        /// The session bus (`DBUS_SESSION_BUS_ADDRESS`).
        case session
        /// The system bus.
        case system
        /// A bus at an explicit address such as `unix:path=/run/…` (registered with `Hello`).
        case address(String)
    }

    /// The answer to `requestName` (`DBUS_REQUEST_NAME_REPLY_*`).
    public enum NameReply: Sendable, Equatable {
        /// We own the name now.
        case primaryOwner
        /// Someone else owns it; we wait in line.
        case inQueue
        /// Someone else owns it and we asked not to queue.
        case exists
        /// We already owned it.
        case alreadyOwner
    }

    /// The queue every callback runs on and every method must be called on.
    public let queue: DispatchQueue
    /// Our unique bus name, e.g. `:1.42`.
    public let uniqueName: String

    /// `DBusConnection *`, a private connection owned by this object alone.
    let pointer: OpaquePointer

    struct State {
        var isClosed = false
        var isDispatching = false
        var isDispatchScheduled = false
        var onSignal: ((Message) -> Void)?
        var onDisconnect: (() -> Void)?
        var registeredPaths: [String] = []
    }
    let state = LockedState(State())

    /// Connects, says `Hello` to the bus and hooks the connection into `queue`.
    public init(bus: Bus, queue: DispatchQueue) throws(DBusError) {
        guard dbus_threads_init_default() != 0 else {
            throw DBusError.noMemory("dbus_threads_init_default")
        }
        let pointer = try Self.open(bus)
        guard let cName = dbus_bus_get_unique_name(pointer) else {
            Self.finish(pointer)
            throw DBusError.failed("dbus_bus_get_unique_name: no unique name after registering")
        }
        self.pointer = pointer
        self.queue = queue
        self.uniqueName = String(cString: cName)
        // From here on deinit runs if init throws, and tears down what was installed.
        try installCallbacks()
        // Messages may have arrived while registering (e.g. NameAcquired).
        scheduleDispatch()
    }

    deinit {
        teardown()
    }

    /// Opens a private connection (closable, unlike the shared one) and registers it.
    private static func open(_ bus: Bus) throws(DBusError) -> OpaquePointer {
        let error = CErrorBox()
        let pointer: OpaquePointer
        switch bus {
        case .session, .system:
            guard let opened = dbus_bus_get_private(bus == .system ? DBUS_BUS_SYSTEM : DBUS_BUS_SESSION, error.pointer) else {
                throw error.error(function: "dbus_bus_get_private")
            }
            pointer = opened
        case .address(let address):
            try DBusValidation.require(DBusValidation.isValidString(address), "invalid bus address")
            guard let opened = dbus_connection_open_private(address, error.pointer) else {
                throw error.error(function: "dbus_connection_open_private")
            }
            pointer = opened
            // Losing the bus must not exit(1) the process (libdbus' default for bus connections).
            dbus_connection_set_exit_on_disconnect(pointer, 0)
            guard dbus_bus_register(pointer, error.pointer) != 0 else {
                finish(pointer)
                throw error.error(function: "dbus_bus_register")
            }
        }
        dbus_connection_set_exit_on_disconnect(pointer, 0)
        return pointer
    }

    /// Whether `close()` has run (or teardown began).
    var isClosed: Bool { state.withLock { $0.isClosed } }

    @inline(__always) func assertOnQueue() {
        #if DEBUG
        dispatchPrecondition(condition: .onQueue(queue))
        #endif
    }

    /// Throws `Disconnected` after `close()`: the C pointer is gone then.
    func checkOpen(_ function: String) throws(DBusError) {
        assertOnQueue()
        if isClosed { throw DBusError.disconnected("\(function): connection closed") }
    }

    // MARK: Callbacks

    /// Every signal that reaches this connection (after `addMatch`, or addressed to us).
    public var onSignal: ((Message) -> Void)? {
        get { state.withLock { $0.onSignal } }
        set { state.withLock { $0.onSignal = newValue } }
    }

    /// The bus went away. Called once, on `queue`; the connection is unusable afterwards.
    public var onDisconnect: (() -> Void)? {
        get { state.withLock { $0.onDisconnect } }
        set { state.withLock { $0.onDisconnect = newValue } }
    }

    // MARK: Names and matches

    /// Asks the bus for a well-known name (`dbus_bus_request_name`).
    public func requestName(_ name: String, doNotQueue: Bool = true, allowReplacement: Bool = false,
                            replaceExisting: Bool = false) throws(DBusError) -> NameReply {
        try checkOpen("dbus_bus_request_name")
        try DBusValidation.require(DBusValidation.isValidBusName(name), "invalid bus name \"\(name)\"")
        var flags: UInt32 = 0
        if doNotQueue { flags |= CDBUS_NAME_FLAG_DO_NOT_QUEUE }
        if allowReplacement { flags |= CDBUS_NAME_FLAG_ALLOW_REPLACEMENT }
        if replaceExisting { flags |= CDBUS_NAME_FLAG_REPLACE_EXISTING }
        let error = CErrorBox()
        let result = dbus_bus_request_name(pointer, name, flags, error.pointer)
        switch result {
        case CDBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case CDBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        case CDBUS_REQUEST_NAME_REPLY_EXISTS: return .exists
        case CDBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default:
            if error.isSet { throw error.error(function: "dbus_bus_request_name") }
            throw DBusError.failed("dbus_bus_request_name: unexpected reply \(result)")
        }
    }

    /// Gives a well-known name back (`dbus_bus_release_name`). Not owning it is not an error.
    public func releaseName(_ name: String) throws(DBusError) {
        try checkOpen("dbus_bus_release_name")
        try DBusValidation.require(DBusValidation.isValidBusName(name), "invalid bus name \"\(name)\"")
        let error = CErrorBox()
        if dbus_bus_release_name(pointer, name, error.pointer) < 0 {
            throw error.error(function: "dbus_bus_release_name")
        }
    }

    /// Subscribes to messages matching `rule`, e.g. `type='signal',interface='org.example.I'`
    /// (`dbus_bus_add_match`; waits for the bus to confirm, so a bad rule throws).
    public func addMatch(_ rule: String) throws(DBusError) {
        try checkOpen("dbus_bus_add_match")
        try DBusValidation.require(DBusValidation.isValidString(rule), "invalid match rule")
        let error = CErrorBox()
        dbus_bus_add_match(pointer, rule, error.pointer)
        if error.isSet { throw error.error(function: "dbus_bus_add_match") }
    }

    /// Removes a rule added with `addMatch` (`dbus_bus_remove_match`).
    public func removeMatch(_ rule: String) throws(DBusError) {
        try checkOpen("dbus_bus_remove_match")
        try DBusValidation.require(DBusValidation.isValidString(rule), "invalid match rule")
        let error = CErrorBox()
        dbus_bus_remove_match(pointer, rule, error.pointer)
        if error.isSet { throw error.error(function: "dbus_bus_remove_match") }
    }

    // MARK: Closing

    /// Tears the connection down, on `queue`. No callback runs after this returns;
    /// later method calls throw `Disconnected`. Calling it twice is harmless.
    public func close() {
        assertOnQueue()
        teardown()
    }
}

internal import CDBus

/// The one error type of DBusKit: a D-Bus error name and a human-readable message.
///
/// Errors that come from the bus or a peer keep the peer's error name (e.g.
/// `org.freedesktop.DBus.Error.ServiceUnknown`). Errors raised locally — a libdbus call that
/// failed, or an argument refused before it could reach libdbus — use the standard names below
/// and name the C function in `message`, so a log line says where it went wrong.
/// It mirrors libdbus' own `DBusError` (name + message), which it replaces in every signature.
public struct DBusError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A D-Bus error name, such as `org.freedesktop.DBus.Error.Failed`.
    public var name: String
    /// What went wrong, for humans.
    public var message: String

    public init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    public var description: String { "\(name): \(message)" }

    // The standard names, so callers never spell them by hand.
    public static let failedName = "org.freedesktop.DBus.Error.Failed"
    public static let invalidArgsName = "org.freedesktop.DBus.Error.InvalidArgs"
    public static let unknownMethodName = "org.freedesktop.DBus.Error.UnknownMethod"
    public static let unknownPropertyName = "org.freedesktop.DBus.Error.UnknownProperty"
    public static let propertyReadOnlyName = "org.freedesktop.DBus.Error.PropertyReadOnly"
    public static let unknownInterfaceName = "org.freedesktop.DBus.Error.UnknownInterface"
    public static let unknownObjectName = "org.freedesktop.DBus.Error.UnknownObject"
    public static let noMemoryName = "org.freedesktop.DBus.Error.NoMemory"
    public static let noReplyName = "org.freedesktop.DBus.Error.NoReply"
    public static let disconnectedName = "org.freedesktop.DBus.Error.Disconnected"
    public static let notSupportedName = "org.freedesktop.DBus.Error.NotSupported"

    /// `org.freedesktop.DBus.Error.Failed`: a generic failure.
    public static func failed(_ message: String) -> DBusError { .init(name: failedName, message: message) }
    /// `org.freedesktop.DBus.Error.InvalidArgs`: an argument was refused.
    public static func invalidArgs(_ message: String) -> DBusError { .init(name: invalidArgsName, message: message) }
    /// `org.freedesktop.DBus.Error.UnknownMethod`.
    public static func unknownMethod(_ message: String) -> DBusError { .init(name: unknownMethodName, message: message) }
    /// `org.freedesktop.DBus.Error.UnknownProperty`.
    public static func unknownProperty(_ message: String) -> DBusError { .init(name: unknownPropertyName, message: message) }
    /// `org.freedesktop.DBus.Error.PropertyReadOnly`.
    public static func propertyReadOnly(_ message: String) -> DBusError { .init(name: propertyReadOnlyName, message: message) }
    /// `org.freedesktop.DBus.Error.UnknownInterface`.
    public static func unknownInterface(_ message: String) -> DBusError { .init(name: unknownInterfaceName, message: message) }
    /// `org.freedesktop.DBus.Error.UnknownObject`.
    public static func unknownObject(_ message: String) -> DBusError { .init(name: unknownObjectName, message: message) }
    /// `org.freedesktop.DBus.Error.Disconnected`: the connection is closed or the bus went away.
    public static func disconnected(_ message: String) -> DBusError { .init(name: disconnectedName, message: message) }

    /// libdbus could not allocate memory in `function` (the usual meaning of a FALSE/NULL result).
    static func noMemory(_ function: String) -> DBusError {
        .init(name: noMemoryName, message: "\(function): out of memory")
    }
}

/// A libdbus `DBusError` on the heap (its address must stay put while libdbus fills it in),
/// freed with the object. Internal: callers only ever see `DBusKit.DBusError`.
final class CErrorBox {
    let pointer: UnsafeMutablePointer<CDBus.DBusError>

    init() {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: CDBus.DBusError())
        dbus_error_init(pointer)
    }

    deinit {
        dbus_error_free(pointer)
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }

    var isSet: Bool { dbus_error_is_set(pointer) != 0 }

    /// The filled-in error as a Swift value. `function` is put in front of the message for
    /// local failures; errors that a peer sent keep their message untouched (`fromPeer`).
    func error(function: String, fromPeer: Bool = false) -> DBusError {
        guard isSet else { return .failed("\(function) failed without saying why") }
        let name = pointer.pointee.name.map { String(cString: $0) } ?? DBusError.failedName
        let message = pointer.pointee.message.map { String(cString: $0) } ?? ""
        return DBusError(name: name, message: fromPeer ? message : "\(function): \(message)")
    }
}

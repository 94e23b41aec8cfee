internal import CDBus

/// Checks names, paths and strings the way libdbus does (`dbus_validate_*`).
///
/// libdbus treats a malformed name, path or string handed to it as a programming error and
/// aborts the whole process. DBusKit runs these checks itself before every such call and
/// throws `invalidArgs` instead; callers can use them too, to refuse bad input early.
public enum DBusValidation {
    /// A valid object path, e.g. `/org/mpris/MediaPlayer2` (`dbus_validate_path`).
    public static func isValidObjectPath(_ path: String) -> Bool {
        validate(path) { dbus_validate_path($0, nil) }
    }

    /// A valid unique (`:1.42`) or well-known (`org.example.App`) bus name (`dbus_validate_bus_name`).
    public static func isValidBusName(_ name: String) -> Bool {
        validate(name) { dbus_validate_bus_name($0, nil) }
    }

    /// A valid interface name (`dbus_validate_interface`).
    public static func isValidInterfaceName(_ name: String) -> Bool {
        validate(name) { dbus_validate_interface($0, nil) }
    }

    /// A valid method or signal name (`dbus_validate_member`).
    public static func isValidMemberName(_ name: String) -> Bool {
        validate(name) { dbus_validate_member($0, nil) }
    }

    /// A valid error name (`dbus_validate_error_name`).
    public static func isValidErrorName(_ name: String) -> Bool {
        validate(name) { dbus_validate_error_name($0, nil) }
    }

    /// A string D-Bus can carry: UTF-8 as libdbus accepts it, without NUL characters
    /// (`dbus_validate_utf8`; a NUL would silently cut the C string short).
    public static func isValidString(_ string: String) -> Bool {
        validate(string) { dbus_validate_utf8($0, nil) }
    }

    /// A valid signature of zero or more complete types (`dbus_signature_validate`).
    public static func isValidSignature(_ signature: String) -> Bool {
        validate(signature) { dbus_signature_validate($0, nil) }
    }

    /// A valid signature of exactly one complete type (`dbus_signature_validate_single`).
    public static func isValidSingleSignature(_ signature: String) -> Bool {
        validate(signature) { dbus_signature_validate_single($0, nil) }
    }

    /// Runs a libdbus validator on the C string, after refusing embedded NULs (which the C
    /// function could not see: the string would simply end there).
    private static func validate(_ string: String, _ check: (UnsafePointer<CChar>) -> dbus_bool_t) -> Bool {
        if string.utf8.contains(0) { return false }
        return string.withCString { check($0) != 0 }
    }
}

extension DBusValidation {
    /// Throws `invalidArgs` naming `what` unless `valid`.
    static func require(_ valid: Bool, _ what: @autoclosure () -> String) throws(DBusError) {
        if !valid { throw DBusError.invalidArgs(what()) }
    }
}

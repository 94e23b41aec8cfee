internal import CPulse

/// `pa_proplist`: the key/value metadata of a client or stream (`media.role=music`, …).
public final class Proplist: @unchecked Sendable {
    // @unchecked Sendable: a proplist is plain data owned by one user at a time; it is built,
    // handed to libpulse (which copies it) and dropped.
    let pointer: OpaquePointer

    /// Well-known keys (the `PA_PROP_*` strings).
    public enum Key {
        public static let mediaRole = "media.role"
        public static let mediaTitle = "media.title"
        public static let mediaArtist = "media.artist"
        public static let mediaName = "media.name"
        public static let applicationName = "application.name"
        public static let applicationID = "application.id"
        public static let applicationIconName = "application.icon_name"
        public static let applicationProcessID = "application.process.id"
        public static let applicationProcessBinary = "application.process.binary"
        /// PipeWire's record of the client's real PID, from the socket's credentials (a
        /// Flatpak app's host PID; `application.process.id` is the client's own claim).
        public static let securePID = "pipewire.sec.pid"
        /// Set by PipeWire for a client that came through the Flatpak portal.
        public static let portalAppID = "pipewire.access.portal.app_id"
        /// A device's shape: internal, speaker, headphone, headset, hands-free, car, hifi, …
        public static let deviceFormFactor = "device.form_factor"
        /// How a device is attached: pci, usb, bluetooth, …
        public static let deviceBus = "device.bus"
        /// The driver API behind a device: alsa, bluez, …
        public static let deviceAPI = "device.api"
    }

    /// How `Stream.updateProperties` merges a proplist into the existing one.
    public enum UpdateMode: Sendable {
        /// Keep existing keys, add new ones.
        case merge
        /// Overwrite the keys given, keep the others.
        case replace
        /// Drop everything, use only the keys given.
        case set

        var raw: pa_update_mode_t {
            switch self {
            case .merge: PA_UPDATE_MERGE
            case .replace: PA_UPDATE_REPLACE
            case .set: PA_UPDATE_SET
            }
        }
    }

    public init() throws(PulseError) {
        guard let pointer = pa_proplist_new() else {
            throw PulseError(function: "pa_proplist_new", code: 0, message: "out of memory")
        }
        self.pointer = pointer
    }

    /// Builds a proplist from `[key: value]`.
    public convenience init(_ values: [String: String]) throws(PulseError) {
        try self.init()
        for (key, value) in values { try set(key, value) }
    }

    deinit { pa_proplist_free(pointer) }

    /// Sets a UTF-8 string value (`pa_proplist_sets`).
    public func set(_ key: String, _ value: String) throws(PulseError) {
        try PulseError.check(pa_proplist_sets(pointer, key, value), "pa_proplist_sets")
    }

    /// The string value for `key`, or nil.
    public subscript(key: String) -> String? {
        guard let value = pa_proplist_gets(pointer, key) else { return nil }
        return String(cString: value)
    }

    /// Copies every string entry of a proplist owned by libpulse (e.g. in an info struct).
    static func dictionary(of pointer: OpaquePointer?) -> [String: String] {
        guard let pointer else { return [:] }
        var result: [String: String] = [:]
        var state: UnsafeMutableRawPointer? = nil
        while let key = pa_proplist_iterate(pointer, &state) {
            if let value = pa_proplist_gets(pointer, key) {
                result[String(cString: key)] = String(cString: value)
            }
        }
        return result
    }
}

internal import DBusKit
internal import PlayerCore

/// org.freedesktop.DBus.Properties of each object: MPRIS's interfaces on the MPRIS object,
/// the audio session's on Aubade's own. An interface of the other object is unknown here.
extension MPRISService {
    func callProperties(_ member: String, on object: ServedObject, _ message: Message) throws(DBusError) -> [DBusValue] {
        switch member {
        case "Get":
            try expect("ss", message)
            let (interface, name) = try twoStrings(message)
            try checkKnown(interface, on: object)
            return [.variant(try value(of: name, in: interface, on: object))]
        case "GetAll":
            try expect("s", message)
            guard case .string(let interface)? = try message.arguments().first else { throw .invalidArgs("GetAll takes s") }
            return [.vardict(try allValues(in: interface, on: object))]
        case "Set":
            try expect("ssv", message)
            let arguments = try message.arguments()
            guard arguments.count == 3, case .string(let interface) = arguments[0],
                  case .string(let name) = arguments[1], case .variant(let value) = arguments[2]
            else { throw .invalidArgs("Set takes (s, s, v)") }
            try checkKnown(interface, on: object)
            if object == .aubade {
                try setSessionProperty(name, in: interface, to: value)
            } else {
                try set(name, in: interface, to: value)
            }
            return []
        default:
            throw unknownMethod(member, message)
        }
    }

    private func twoStrings(_ message: Message) throws(DBusError) -> (String, String) {
        let arguments = try message.arguments()
        guard arguments.count == 2, case .string(let first) = arguments[0], case .string(let second) = arguments[1]
        else { throw .invalidArgs("expected (s, s)") }
        return (first, second)
    }

    private func value(of name: String, in interface: String, on object: ServedObject) throws(DBusError) -> DBusValue {
        let host = hostForExtensions
        if object == .aubade {
            if interface == MPRISNames.audioSessionInterface || interface.isEmpty,
               let value = AudioSessionProperties.value(named: name, of: host.snapshot) {
                return value
            }
            throw .unknownProperty("no property \(EchoText.safe(name)) on \(interface.isEmpty ? object.path : interface)")
        }
        // An empty interface name means "whichever has it" (D-Bus specification).
        if interface == MPRISNames.rootInterface || interface.isEmpty, let value = RootProperties.value(named: name) {
            return value
        }
        if interface == MPRISNames.playerInterface || interface.isEmpty,
           let value = PlayerProperties.value(named: name, of: host.snapshot, position: host.position) {
            return value
        }
        if interface == MPRISNames.trackListInterface || interface.isEmpty, let value = trackListProperty(name) {
            return value
        }
        if interface == MPRISNames.playlistsInterface || interface.isEmpty, let value = playlistsProperty(name) {
            return value
        }
        throw .unknownProperty("no property \(EchoText.safe(name)) on \(interface.isEmpty ? object.path : interface)")
    }

    private func allValues(in interface: String, on object: ServedObject) throws(DBusError) -> [(String, DBusValue)] {
        try checkKnown(interface, on: object)
        switch interface {
        case MPRISNames.rootInterface:
            return RootProperties.all
        case MPRISNames.playerInterface:
            let host = hostForExtensions
            let snapshot = host.snapshot
            let position = host.position
            return PlayerProperties.names.compactMap { name in
                PlayerProperties.value(named: name, of: snapshot, position: position).map { (name, $0) }
            }
        case MPRISNames.audioSessionInterface:
            return AudioSessionProperties.all(of: hostForExtensions.snapshot)
        case MPRISNames.trackListInterface:
            return ["Tracks", "CanEditTracks"].compactMap { name in trackListProperty(name).map { (name, $0) } }
        case MPRISNames.playlistsInterface:
            return ["PlaylistCount", "Orderings", "ActivePlaylist"].compactMap { name in playlistsProperty(name).map { (name, $0) } }
        default:
            // The standard interfaces and Queue1 have no properties; "" (every interface) is
            // not asked by clients, and answered as an interface without any.
            return []
        }
    }

    private func set(_ name: String, in interface: String, to value: DBusValue) throws(DBusError) {
        let isPlayer = interface == MPRISNames.playerInterface || (interface.isEmpty && PlayerProperties.names.contains(name))
        if isPlayer, PlayerProperties.names.contains(name) {
            hostForExtensions.handle(try PlayerProperties.event(setting: name, to: value))
            return
        }
        let isRoot = interface == MPRISNames.rootInterface || interface.isEmpty
        let isReadOnlyElsewhere = (interface == MPRISNames.trackListInterface && trackListProperty(name) != nil)
            || (interface == MPRISNames.playlistsInterface && playlistsProperty(name) != nil)
        if isReadOnlyElsewhere || (isRoot && RootProperties.value(named: name) != nil) {
            throw .propertyReadOnly("\(name) is read-only")
        }
        throw .unknownProperty("no property \(EchoText.safe(name)) on \(interface.isEmpty ? "any interface" : interface)")
    }

    /// A write to the audio session's policy switches (on `/org/aubade/Player`).
    private func setSessionProperty(_ name: String, in interface: String, to value: DBusValue) throws(DBusError) {
        guard interface == MPRISNames.audioSessionInterface || interface.isEmpty else {
            throw .unknownProperty("no property \(EchoText.safe(name)) on \(interface)")
        }
        let host = hostForExtensions
        let policy = try AudioSessionProperties.policy(setting: name, to: value, in: host.snapshot.policy)
        host.handle(.setPolicy(policy))
    }

    /// Throws UnknownInterface unless `interface` is "" or one the object carries.
    private func checkKnown(_ interface: String, on object: ServedObject) throws(DBusError) {
        guard interface.isEmpty || object.knownInterfaces.contains(interface) else {
            throw .unknownInterface("no interface \(EchoText.safe(interface)) on \(object.path)")
        }
    }
}

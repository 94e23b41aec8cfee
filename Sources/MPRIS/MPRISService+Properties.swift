internal import DBusKit
internal import PlayerCore

/// org.freedesktop.DBus.Properties for the root and Player interfaces.
extension MPRISService {
    func callProperties(_ member: String, _ message: Message) throws(DBusError) -> [DBusValue] {
        switch member {
        case "Get":
            try expect("ss", message)
            let (interface, name) = try twoStrings(message)
            return [.variant(try value(of: name, in: interface))]
        case "GetAll":
            try expect("s", message)
            guard case .string(let interface)? = try message.arguments().first else { throw .invalidArgs("GetAll takes s") }
            return [.vardict(try allValues(in: interface))]
        case "Set":
            try expect("ssv", message)
            let arguments = try message.arguments()
            guard arguments.count == 3, case .string(let interface) = arguments[0],
                  case .string(let name) = arguments[1], case .variant(let value) = arguments[2]
            else { throw .invalidArgs("Set takes (s, s, v)") }
            try set(name, in: interface, to: value)
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

    private func value(of name: String, in interface: String) throws(DBusError) -> DBusValue {
        let host = hostForExtensions
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
        if interface == MPRISNames.audioSessionInterface || interface.isEmpty,
           let value = AudioSessionProperties.value(named: name, of: host.snapshot) {
            return value
        }
        try checkKnown(interface)
        throw .unknownProperty("no property \(name) on \(interface)")
    }

    private func allValues(in interface: String) throws(DBusError) -> [(String, DBusValue)] {
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
        case MPRISNames.propertiesInterface, MPRISNames.introspectableInterface, QueueInterface.name:
            return []
        default:
            throw .unknownInterface("no interface \(interface) on \(MPRISNames.objectPath)")
        }
    }

    private func set(_ name: String, in interface: String, to value: DBusValue) throws(DBusError) {
        let isPlayer = interface == MPRISNames.playerInterface || (interface.isEmpty && PlayerProperties.names.contains(name))
        if isPlayer, PlayerProperties.names.contains(name) {
            hostForExtensions.handle(try PlayerProperties.event(setting: name, to: value))
            return
        }
        let isSession = interface == MPRISNames.audioSessionInterface
            || (interface.isEmpty && AudioSessionProperties.names.contains(name))
        if isSession {
            let host = hostForExtensions
            let policy = try AudioSessionProperties.policy(setting: name, to: value, in: host.snapshot.policy)
            host.handle(.setPolicy(policy))
            return
        }
        let isRoot = interface == MPRISNames.rootInterface || interface.isEmpty
        let isReadOnlyElsewhere = (interface == MPRISNames.trackListInterface && trackListProperty(name) != nil)
            || (interface == MPRISNames.playlistsInterface && playlistsProperty(name) != nil)
        if isReadOnlyElsewhere || (isRoot && RootProperties.value(named: name) != nil) {
            throw .propertyReadOnly("\(name) is read-only")
        }
        try checkKnown(interface)
        throw .unknownProperty("no property \(name) on \(interface.isEmpty ? "any interface" : interface)")
    }

    private func checkKnown(_ interface: String) throws(DBusError) {
        let known = ["", MPRISNames.rootInterface, MPRISNames.playerInterface, MPRISNames.audioSessionInterface,
                     MPRISNames.trackListInterface, MPRISNames.playlistsInterface, QueueInterface.name,
                     MPRISNames.propertiesInterface, MPRISNames.introspectableInterface]
        guard known.contains(interface) else {
            throw .unknownInterface("no interface \(interface) on \(MPRISNames.objectPath)")
        }
    }
}

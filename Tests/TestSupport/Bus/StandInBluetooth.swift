import DBusKit
import Foundation

/// The way a Bluetooth headset or car kit reaches Aubade, without a Bluetooth adapter: the real
/// `mpris-proxy` (Debian's bluez 5.66) between the private session bus and a stand-in system bus,
/// where python3-dbusmock's `bluez5` template plays bluetoothd — an adapter `hci0` whose
/// `org.bluez.Media1` records RegisterPlayer/UnregisterPlayer (added to the template, which
/// lacks them). mpris-proxy registers every MPRIS player it finds there, at the path it makes
/// of the player's unique name (":1.7" → "/_1_7"), and forwards to the player what bluetoothd
/// sends to that path (AVRCP play, pause, next, previous; absolute volume as a Set of Volume),
/// and the player's PropertiesChanged and Seeked back to the system bus.
///
/// Everything is stopped by PID: mpris-proxy, the mock, the stand-in bus.
final class StandInBluetooth {
    let systemBusAddress: String
    private let bus: Subprocess
    private let mock: Subprocess
    private var proxy: Subprocess?
    /// A client of the stand-in system bus: bluetoothd's side of the conversation.
    let client: BusClient

    static let adapterPath = "/org/bluez/hci0"
    static let mediaInterface = "org.bluez.Media1"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"

    init() throws {
        let (bus, address) = try StandInSystemBus.start()
        var mock: Subprocess?
        do {
            mock = try Subprocess(PythonScript.interpreter, ["-m", "dbusmock", "--system", "--template", "bluez5"],
                                  environment: ["DBUS_SYSTEM_BUS_ADDRESS": address])
            client = try BusClient(destination: "org.bluez", label: "aubade.tests.bluetoothd", bus: .address(address))
        } catch {
            mock?.stop(grace: 1)
            bus.stop(grace: 1)
            throw error
        }
        self.bus = bus
        self.mock = mock!
        systemBusAddress = address
        do {
            try waitForMock()
            try call(path: "/org/bluez", interface: "org.bluez.Mock", member: "AddAdapter", [.string("hci0"), .string("aubade-test")])
            for (member, signature) in [("RegisterPlayer", "oa{sv}"), ("UnregisterPlayer", "o")] {
                try call(path: Self.adapterPath, interface: "org.freedesktop.DBus.Mock", member: "AddMethod",
                         [.string(Self.mediaInterface), .string(member), .string(signature), .string(""), .string("")])
            }
        } catch {
            stopAll()
            throw error
        }
    }

    deinit { stopAll() }

    func stop() { stopAll() }

    private func stopAll() {
        proxy?.stop(grace: 2)
        mock.stop(grace: 2)
        bus.stop(grace: 2)
    }

    /// What mpris-proxy and the mock printed, for a failure's report.
    var log: String {
        "--- mpris-proxy:\n\(proxy?.stdout.text ?? "")\(proxy?.stderr.text ?? "")\n--- dbusmock bluez5:\n\(mock.stderr.text)"
    }

    /// Starts `mpris-proxy` between the private session bus and the stand-in system bus.
    func startProxy() throws {
        proxy = try Subprocess("mpris-proxy", [], environment: ["DBUS_SYSTEM_BUS_ADDRESS": systemBusAddress])
    }

    var proxyIsRunning: Bool { proxy?.isRunning ?? false }

    private func waitForMock() throws {
        let deadline = Date(timeIntervalSinceNow: 10)
        while true {
            let (outcome, _) = try client.call(path: "/", interface: "org.freedesktop.DBus", member: "NameHasOwner",
                                               [.string("org.bluez")], destination: "org.freedesktop.DBus")
            if case .returned(let values) = outcome, values.first?.asBool == true { return }
            guard mock.isRunning, Date() < deadline else {
                throw DaemonError("python3-dbusmock's bluez5 did not take org.bluez: \(mock.stderr.text)")
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
    }

    @discardableResult
    private func call(path: String, interface: String, member: String, _ arguments: [DBusKit.DBusValue]) throws -> [DBusKit.DBusValue] {
        let (outcome, _) = try client.call(path: path, interface: interface, member: member, arguments)
        guard case .returned(let values) = outcome else { throw DaemonError("\(interface).\(member) on the mock: \(outcome)") }
        return values
    }

    /// Each RegisterPlayer bluetoothd received: the player's path and its properties, with
    /// their D-Bus types as mpris-proxy sent them.
    func registrations() throws -> [(path: String, properties: [String: DBusKit.DBusValue])] {
        try calls("RegisterPlayer").compactMap { arguments in
            guard arguments.count == 2, let path = arguments[0].asObjectPath, let properties = arguments[1].asVardict else { return nil }
            return (path, properties)
        }
    }

    /// The paths of each UnregisterPlayer bluetoothd received.
    func unregistrations() throws -> [String] {
        try calls("UnregisterPlayer").compactMap { $0.first?.asObjectPath }
    }

    /// dbusmock's record of one of Media1's methods: each call's arguments.
    private func calls(_ member: String) throws -> [[DBusKit.DBusValue]] {
        let (outcome, _) = try client.call(path: Self.adapterPath, interface: "org.freedesktop.DBus.Mock",
                                           member: "GetMethodCalls", [.string(member)])
        guard case .returned(let values) = outcome, let calls = values.first?.asArray else {
            throw DaemonError("GetMethodCalls(\(member)): \(outcome)")
        }
        return calls.compactMap { call in
            guard case .structure(let fields) = call, fields.count == 2, let arguments = fields[1].asArray else { return nil }
            return arguments.map(\.unwrapped)
        }
    }

    /// mpris-proxy's unique name on the system bus, where bluetoothd sends AVRCP commands.
    func proxyConnection() throws -> String {
        guard let pid = proxy?.pid else { throw DaemonError("mpris-proxy is not started") }
        let (outcome, _) = try client.call(path: "/", interface: "org.freedesktop.DBus", member: "ListNames",
                                           destination: "org.freedesktop.DBus")
        guard case .returned(let values) = outcome, let names = values.first?.asArray?.compactMap(\.asString) else {
            throw DaemonError("ListNames: \(outcome)")
        }
        for name in names where name.hasPrefix(":") {
            let (owner, _) = try client.call(path: "/", interface: "org.freedesktop.DBus", member: "GetConnectionUnixProcessID",
                                             [.string(name)], destination: "org.freedesktop.DBus")
            if case .returned(let values) = owner, let found = values.first, case .uint32(let number) = found,
               Int32(number) == pid {
                return name
            }
        }
        throw DaemonError("mpris-proxy (pid \(pid)) has no connection to the stand-in system bus")
    }

    /// An AVRCP command as bluetoothd sends it: a Player method call on the registered path,
    /// without waiting for the reply (mpris-proxy 5.66 never sends one for an empty reply).
    func sendCommand(_ member: String, to path: String) throws {
        try client.send(path: path, interface: Self.playerInterface, member: member, destination: try proxyConnection())
    }

    /// A player setting as bluetoothd changes it (media.c's media_player_set_setting: Shuffle
    /// as b, LoopStatus as s), and the volume the same way: Properties.Set of a Player property
    /// on the registered path, no reply awaited.
    func setProperty(_ name: String, _ value: DBusKit.DBusValue, at path: String) throws {
        try client.send(path: path, interface: "org.freedesktop.DBus.Properties", member: "Set",
                        [.string(Self.playerInterface), .string(name), .variant(value)],
                        destination: try proxyConnection())
    }
}

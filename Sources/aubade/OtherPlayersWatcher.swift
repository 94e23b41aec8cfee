import DBusKit
import MPRIS
import PlayerCore

/// Follows the other MPRIS players on the session bus (for the session category): who is
/// there, whether each plays, and on which track. It only reports; PlayerCore decides.
///
/// Used on the core queue only, with the daemon's own connection.
final class OtherPlayersWatcher {
    private static let prefix = "org.mpris.MediaPlayer2."
    private let connection: Connection
    private let ownNames: () -> Set<String>
    private let report: (Event) -> Void
    /// Unique connection name (":1.42") → well-known name, for PropertiesChanged senders.
    private var namesByOwner: [String: String] = [:]
    private var players: [String: OtherPlayer] = [:]
    /// The players whose PlaybackStatus has been read: only those are reported.
    private var statusKnown: Set<String> = []

    /// Names `excluding` says yes to are never followed (`aubade guard` leaves Aubade's own
    /// players, which have their audio session, alone).
    private let excluding: (String) -> Bool
    /// Every other signal the connection receives (it has one signal handler, set here):
    /// NameAcquired and NameLost for `GuardName`.
    var otherSignal: ((Message) -> Void)?

    init(connection: Connection, ownNames: @escaping () -> Set<String>, excluding: @escaping (String) -> Bool = { _ in false },
         report: @escaping (Event) -> Void) {
        self.connection = connection
        self.ownNames = ownNames
        self.excluding = excluding
        self.report = report
    }

    func start() {
        do {
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                    + "member='NameOwnerChanged',arg0namespace='org.mpris.MediaPlayer2'")
            try connection.addMatch("type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                                    + "path='/org/mpris/MediaPlayer2',arg0='org.mpris.MediaPlayer2.Player'")
            connection.onSignal = { [weak self] message in self?.receive(message) }
            let list = try Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus", member: "ListNames", arguments: [])
            try connection.call(list) { [weak self] result in
                guard let self, case .success(let reply) = result,
                      let names = (try? reply.arguments())?.first?.asStringArray else { return }
                for name in names where self.isOther(name) { self.follow(name) }
            }
        } catch {
            Log.warning("cannot watch the other players (\(error.message)): the session category is off")
        }
    }

    /// Sends Pause or Play to another player; a player that went away meanwhile is no error.
    /// `answered` runs when it replied, failed or timed out (2 s).
    func command(_ name: String, _ command: OtherPlayerCommand, answered: @escaping () -> Void = {}) {
        do {
            let call = try Message.methodCall(destination: name, path: MPRISNames.objectPath,
                                              interface: MPRISNames.playerInterface, member: command.rawValue, arguments: [])
            try connection.call(call, timeoutMilliseconds: 2_000) { result in
                if case .failure(let error) = result { Log.notice("\(command.rawValue) to \(name) failed: \(error.message)") }
                answered()
            }
        } catch {
            Log.notice("\(command.rawValue) to \(name) failed: \(error.message)")
            answered()
        }
    }

    private func isOther(_ name: String) -> Bool {
        name.hasPrefix(Self.prefix) && !ownNames().contains(name) && !excluding(name) && !PlayerRelay.isRelay(name)
    }

    /// Learns a player's owner (its connection and process), reads its status and track, and
    /// its Identity and DesktopEntry (what a stream may name it by).
    private func follow(_ name: String) {
        guard let owner = try? busCall("GetNameOwner", [.string(name)]),
              let getAll = try? Message.methodCall(destination: name, path: MPRISNames.objectPath,
                                                   interface: MPRISNames.propertiesInterface, member: "GetAll",
                                                   arguments: [.string(MPRISNames.playerInterface)]),
              let getRoot = try? Message.methodCall(destination: name, path: MPRISNames.objectPath,
                                                    interface: MPRISNames.propertiesInterface, member: "GetAll",
                                                    arguments: [.string(MPRISNames.rootInterface)])
        else { return }
        try? connection.call(owner) { [weak self] result in
            guard let self, case .success(let reply) = result, let unique = (try? reply.arguments())?.first?.asString else { return }
            namesByOwner[unique] = name
            learnProcess(of: name, owner: unique)
        }
        try? connection.call(getAll, timeoutMilliseconds: 2_000) { [weak self] result in
            guard case .success(let reply) = result, let properties = (try? reply.arguments())?.first?.asVardict else { return }
            self?.update(name, with: properties)
        }
        try? connection.call(getRoot, timeoutMilliseconds: 2_000) { [weak self] result in
            guard case .success(let reply) = result, let properties = (try? reply.arguments())?.first?.asVardict else { return }
            self?.change(name) { player in
                player.identity = properties["Identity"]?.asString.map { String($0.prefix(200)) }
                player.desktopEntry = properties["DesktopEntry"]?.asString.map { String($0.prefix(200)) }
            }
        }
    }

    /// The PID of the connection that owns the name, as the bus daemon saw it connect (not a
    /// claim of the player's).
    private func learnProcess(of name: String, owner unique: String) {
        guard let call = try? busCall("GetConnectionUnixProcessID", [.string(unique)]) else { return }
        try? connection.call(call) { [weak self] result in
            guard let self, case .success(let reply) = result, namesByOwner[unique] == name,
                  case .uint32(let pid)? = (try? reply.arguments())?.first, pid > 0, pid <= UInt32(Int32.max) else { return }
            change(name) { $0.processID = Int32(pid) }
        }
    }

    private func busCall(_ member: String, _ arguments: [DBusValue]) throws(DBusError) -> Message {
        try Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                               interface: "org.freedesktop.DBus", member: member, arguments: arguments)
    }

    private func receive(_ message: Message) {
        guard let arguments = try? message.arguments() else { return }
        switch message.member {
        case "NameOwnerChanged":
            guard arguments.count == 3, let name = arguments[0].asString, isOther(name),
                  let oldOwner = arguments[1].asString, let newOwner = arguments[2].asString else { return }
            if !oldOwner.isEmpty {
                namesByOwner[oldOwner] = nil
                players[name] = nil
                statusKnown.remove(name)
                report(.otherPlayerGone(name))
            }
            if !newOwner.isEmpty {
                namesByOwner[newOwner] = name
                follow(name)
            }
        case "PropertiesChanged":
            guard let sender = message.sender, let name = namesByOwner[sender], arguments.count >= 2,
                  let changed = arguments[1].asVardict else { return }
            update(name, with: changed)
        default:
            otherSignal?(message)
        }
    }

    private func update(_ name: String, with properties: [String: DBusValue]) {
        let status = properties["PlaybackStatus"]?.asString.flatMap(PlaybackStatus.init(rawValue:))
        // The first status is news even when it matches the Stopped a partial entry assumed.
        let firstStatus = status != nil && isOther(name) && statusKnown.insert(name).inserted
        change(name, reportingAnyway: firstStatus) { player in
            if let status { player.status = status }
            if let metadata = properties["Metadata"]?.asVardict { player.trackID = metadata["mpris:trackid"]?.asObjectPath }
        }
    }

    /// Applies `body` to what we know of `name` and reports it if that changed — once its
    /// status is known. Its process, Identity and DesktopEntry may come first (they are asked
    /// for at the same time); reported then, it would read as Stopped, and its status arriving
    /// as a start of playback: Aubade, playing, paused itself for a player that had been playing
    /// all along (seen in CI), where it should have paused that player.
    private func change(_ name: String, reportingAnyway: Bool = false, _ body: (inout OtherPlayer) -> Void) {
        guard isOther(name) else { return }
        var player = players[name] ?? OtherPlayer(name: name, status: .stopped, trackID: nil)
        body(&player)
        guard reportingAnyway || players[name] != player else { return }
        players[name] = player
        if statusKnown.contains(name) { report(.otherPlayerChanged(player)) }
    }
}

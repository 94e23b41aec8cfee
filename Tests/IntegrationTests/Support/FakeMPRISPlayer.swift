import DBusKit
import Dispatch
import Foundation

/// Another MPRIS player on the private session bus, in this process but on its own DBusKit
/// `Connection` (so the bus, and Aubade, see it as a peer of its own): owns
/// `org.mpris.MediaPlayer2.fake<N>` and serves /org/mpris/MediaPlayer2 with the root interface,
/// the Player interface (Play, Pause, PlayPause, Stop; PlaybackStatus, Metadata with
/// mpris:trackid, …) and org.freedesktop.DBus.Properties (Get, GetAll).
///
/// Every method call it receives is logged with its time. Every change of PlaybackStatus is
/// announced with PropertiesChanged(org.mpris.MediaPlayer2.Player, {PlaybackStatus}), a change
/// of track with PropertiesChanged(…, {Metadata}), as real players do. `userPlays()` and friends
/// change its state the way its own user would (its own buttons, not the bus).
///
/// Thread safety: the connection, and every change of state, lives on `queue`; the state and
/// the log are also kept under `lock` so that the test thread can read them at any time.
final class FakeMPRISPlayer: @unchecked Sendable {
    /// One method call as the fake received it.
    struct Call: CustomStringConvertible {
        var interface: String
        var member: String
        var sender: String
        var arguments: [String]
        /// Monotonic seconds (`FakeMPRISPlayer.now()`).
        var time: Double

        var isTransport: Bool {
            interface == FakeMPRISPlayer.playerInterface
                && ["Play", "Pause", "PlayPause", "Stop", "Next", "Previous", "Seek", "SetPosition", "OpenUri"]
                .contains(member)
        }

        var description: String {
            let arguments = arguments.isEmpty ? "" : "(\(arguments.joined(separator: ", ")))"
            return String(format: "%.3f ", time) + "\(member)\(arguments) from \(sender)"
        }
    }

    static let objectPath = "/org/mpris/MediaPlayer2"
    static let rootInterface = "org.mpris.MediaPlayer2"
    static let playerInterface = "org.mpris.MediaPlayer2.Player"
    static let propertiesInterface = "org.freedesktop.DBus.Properties"

    /// Seconds on the monotonic clock, the timebase of `Call.time`.
    static func now() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }

    let index: Int
    /// `org.mpris.MediaPlayer2.fake<index>`
    let busName: String
    /// This fake's connection (":1.N").
    let uniqueName: String

    private let queue: DispatchQueue
    private let connection: Connection
    private let lock = NSLock()
    private var _status: String
    private var _trackID: String
    private var _title: String
    private var _calls: [Call] = []
    private var _statusHistory: [String] = []
    private var closed = false
    private var _fightsBack = false

    private var _playerPropertiesDelay = 0.0
    /// Seconds before it answers GetAll of the Player interface (its status and track) — the
    /// root interface and the bus daemon answer at once, as with a busy player.
    var playerPropertiesDelay: Double {
        get { lock.withLock { _playerPropertiesDelay } }
        set { lock.withLock { _playerPropertiesDelay = newValue } }
    }

    /// A badly behaved player: a Pause over the bus pauses it, and 0.2 s later it plays
    /// again by itself (as if its user, or its own policy, insisted).
    var fightsBack: Bool {
        get { lock.withLock { _fightsBack } }
        set { lock.withLock { _fightsBack = newValue } }
    }

    /// Connects to the session bus, serves the object and takes `org.mpris.MediaPlayer2.fake<index>`
    /// (last, so that whoever sees the name appear can already ask it everything).
    init(index: Int, status: String = "Stopped", track: Int = 1) throws {
        let busName = "org.mpris.MediaPlayer2.fake\(index)"
        self.index = index
        self.busName = busName
        _status = status
        _trackID = FakeMPRISPlayer.trackPath(index: index, track: track)
        _title = "Fake \(index) track \(track)"
        _statusHistory = [status]
        let queue = DispatchQueue(label: "fake-mpris-\(index)")
        self.queue = queue
        let result = queue.sync { () -> Result<Connection, DBusError> in
            do throws(DBusError) { return .success(try Connection(bus: .session, queue: queue)) } catch { return .failure(error) }
        }
        let connection = try result.get()
        self.connection = connection
        uniqueName = connection.uniqueName
        let registered = queue.sync { () -> Result<Connection.NameReply, DBusError> in
            do throws(DBusError) {
                try connection.registerObject(path: FakeMPRISPlayer.objectPath) { [weak self] message in
                    self?.receive(message)
                }
                return .success(try connection.requestName(busName))
            } catch {
                return .failure(error)
            }
        }
        let reply = try registered.get()
        guard reply == .primaryOwner else {
            close()
            throw BusError("\(busName) is already owned (\(reply))")
        }
    }

    deinit {
        close()
    }

    static func trackPath(index: Int, track: Int) -> String {
        "/org/mpris/MediaPlayer2/fake\(index)/track/\(track)"
    }

    // MARK: Reading

    var playbackStatus: String { lock.withLock { _status } }
    var trackID: String { lock.withLock { _trackID } }
    /// Every status it has had, in order (the first is the initial one).
    var statusHistory: [String] { lock.withLock { _statusHistory } }
    /// Every method call received, oldest first.
    var calls: [Call] { lock.withLock { _calls } }
    /// Play, Pause, PlayPause, Stop (and other Player methods), not property reads.
    var transportCalls: [Call] { calls.filter(\.isTransport) }
    /// The calls of the Player interface named `member`.
    func calls(_ member: String) -> [Call] {
        calls.filter { $0.interface == FakeMPRISPlayer.playerInterface && $0.member == member }
    }
    /// A mark for `transportCalls(after:)`.
    var transportMark: Int { transportCalls.count }
    func transportCalls(after mark: Int) -> [Call] { Array(transportCalls.dropFirst(mark)) }

    var description: String {
        "\(busName) [\(playbackStatus), \(trackID)] transport calls: \(transportCalls)"
    }

    // MARK: Its own user

    /// The user presses play on this player.
    func userPlays() { onQueue { $0.setStatus("Playing") } }
    /// The user presses pause.
    func userPauses() { onQueue { $0.setStatus("Paused") } }
    /// The user presses stop.
    func userStops() { onQueue { $0.setStatus("Stopped") } }

    /// The user picks another track (the status stays as it is); announces the new Metadata.
    func changeTrack(to track: Int) {
        onQueue { player in
            let (path, title) = (FakeMPRISPlayer.trackPath(index: player.index, track: track),
                                 "Fake \(player.index) track \(track)")
            player.lock.withLock {
                player._trackID = path
                player._title = title
            }
            player.emitChanged(["Metadata": player.metadataValue()])
        }
    }

    /// Releases the name and closes the connection (the bus then announces the name gone).
    func close() {
        let alreadyClosed = lock.withLock { () -> Bool in
            defer { closed = true }
            return closed
        }
        guard !alreadyClosed else { return }
        let connection = self.connection
        queue.sync { connection.close() }
    }

    private func onQueue(_ body: @escaping (FakeMPRISPlayer) -> Void) {
        queue.sync {
            guard !lock.withLock({ closed }) else { return }
            body(self)
        }
    }

    // MARK: State (on `queue`)

    private func setStatus(_ status: String) {
        let changed = lock.withLock { () -> Bool in
            guard _status != status else { return false }
            _status = status
            _statusHistory.append(status)
            return true
        }
        if changed { emitChanged(["PlaybackStatus": .string(status)]) }
    }

    private func emitChanged(_ properties: [String: DBusKit.DBusValue]) {
        let entries = properties.keys.sorted().map { ($0, properties[$0]!) }
        guard let signal = try? Message.signal(
            path: FakeMPRISPlayer.objectPath, interface: FakeMPRISPlayer.propertiesInterface, member: "PropertiesChanged",
            arguments: [.string(FakeMPRISPlayer.playerInterface), .vardict(entries), .stringArray([])]) else { return }
        try? connection.send(signal)
        connection.flush()
    }

    private func metadataValue() -> DBusKit.DBusValue {
        let (trackID, title) = lock.withLock { (_trackID, _title) }
        // Track 0: no track at all (empty Metadata), as many a Stopped player has.
        guard !trackID.hasSuffix("/track/0") else { return .vardict([]) }
        return .vardict([
            ("mpris:trackid", .objectPath(trackID)),
            ("xesam:title", .string(title)),
            ("xesam:artist", .stringArray(["Fake \(index)"])),
            ("mpris:length", .int64(180_000_000)),
        ])
    }

    private func rootProperties() -> [(String, DBusKit.DBusValue)] {
        [
            ("Identity", .string("Fake player \(index)")),
            ("CanQuit", .boolean(false)),
            ("CanRaise", .boolean(false)),
            ("HasTrackList", .boolean(false)),
            ("SupportedUriSchemes", .stringArray([])),
            ("SupportedMimeTypes", .stringArray([])),
        ]
    }

    private func playerProperties() -> [(String, DBusKit.DBusValue)] {
        [
            ("PlaybackStatus", .string(playbackStatus)),
            ("LoopStatus", .string("None")),
            ("Rate", .double(1)),
            ("Shuffle", .boolean(false)),
            ("Metadata", metadataValue()),
            ("Volume", .double(1)),
            ("Position", .int64(0)),
            ("MinimumRate", .double(1)),
            ("MaximumRate", .double(1)),
            ("CanGoNext", .boolean(false)),
            ("CanGoPrevious", .boolean(false)),
            ("CanPlay", .boolean(true)),
            ("CanPause", .boolean(true)),
            ("CanSeek", .boolean(false)),
            ("CanControl", .boolean(true)),
        ]
    }

    private func properties(of interface: String) -> [(String, DBusKit.DBusValue)]? {
        switch interface {
        case FakeMPRISPlayer.rootInterface: rootProperties()
        case FakeMPRISPlayer.playerInterface: playerProperties()
        default: nil
        }
    }

    // MARK: Method calls (on `queue`)

    private func receive(_ message: Message) {
        guard message.kind == .methodCall, let member = message.member else { return }
        let interface = message.interface ?? ""
        let arguments = (try? message.arguments()) ?? []
        let call = Call(interface: interface, member: member, sender: message.sender ?? "?",
                        arguments: arguments.map { $0.asString ?? String(describing: $0) }, time: FakeMPRISPlayer.now())
        lock.withLock { _calls.append(call) }

        var reply: [DBusKit.DBusValue] = []
        var afterReply: (() -> Void)?
        switch (interface, member) {
        case (FakeMPRISPlayer.playerInterface, "Play"), ("", "Play"):
            afterReply = { self.setStatus("Playing") }
        case (FakeMPRISPlayer.playerInterface, "Pause"), ("", "Pause"):
            if playbackStatus == "Playing" {
                afterReply = {
                    self.setStatus("Paused")
                    if self.fightsBack {
                        self.queue.asyncAfter(deadline: .now() + 0.2) { [weak self] in
                            guard let self, !self.lock.withLock({ self.closed }) else { return }
                            self.setStatus("Playing")
                        }
                    }
                }
            }
        case (FakeMPRISPlayer.playerInterface, "PlayPause"), ("", "PlayPause"):
            let next = playbackStatus == "Playing" ? "Paused" : "Playing"
            afterReply = { self.setStatus(next) }
        case (FakeMPRISPlayer.playerInterface, "Stop"), ("", "Stop"):
            afterReply = { self.setStatus("Stopped") }
        case (FakeMPRISPlayer.playerInterface, "Next"), (FakeMPRISPlayer.playerInterface, "Previous"),
             (FakeMPRISPlayer.playerInterface, "Seek"), (FakeMPRISPlayer.playerInterface, "SetPosition"),
             (FakeMPRISPlayer.playerInterface, "OpenUri"), (FakeMPRISPlayer.rootInterface, "Raise"),
             (FakeMPRISPlayer.rootInterface, "Quit"):
            break
        case (FakeMPRISPlayer.propertiesInterface, "Get"):
            guard arguments.count == 2, let name = arguments[0].asString, let property = arguments[1].asString else {
                return answer(message, error: .invalidArgs("Get(ss)"))
            }
            guard let all = properties(of: name) else {
                return answer(message, error: .unknownInterface("no interface \(name)"))
            }
            guard let value = all.first(where: { $0.0 == property })?.1 else {
                return answer(message, error: .unknownProperty("no property \(property)"))
            }
            reply = [.variant(value)]
        case (FakeMPRISPlayer.propertiesInterface, "GetAll"):
            guard let name = arguments.first?.asString else { return answer(message, error: .invalidArgs("GetAll(s)")) }
            reply = [.vardict(properties(of: name) ?? [])]
            let delay = playerPropertiesDelay
            if name == FakeMPRISPlayer.playerInterface, delay > 0, message.expectsReply,
               let returned = try? message.makeReturn(reply) {
                queue.asyncAfter(deadline: .now() + delay) { [connection] in
                    try? connection.send(returned)
                    connection.flush()
                }
                return
            }
        case (FakeMPRISPlayer.propertiesInterface, "Set"):
            return answer(message, error: .propertyReadOnly("the fake's properties are read-only"))
        case ("org.freedesktop.DBus.Introspectable", "Introspect"):
            reply = [.string(FakeMPRISPlayer.introspection)]
        default:
            return answer(message, error: .unknownMethod("\(interface).\(member) is not implemented by the fake"))
        }
        if message.expectsReply, let returned = try? message.makeReturn(reply) {
            try? connection.send(returned)
        }
        afterReply?()
        connection.flush()
    }

    private func answer(_ message: Message, error: DBusError) {
        guard message.expectsReply else { return }
        try? connection.send(message.makeError(error))
        connection.flush()
    }

    private static let introspection = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>
          <interface name="org.mpris.MediaPlayer2">
            <method name="Raise"/><method name="Quit"/>
            <property name="Identity" type="s" access="read"/>
            <property name="CanQuit" type="b" access="read"/>
            <property name="CanRaise" type="b" access="read"/>
            <property name="HasTrackList" type="b" access="read"/>
            <property name="SupportedUriSchemes" type="as" access="read"/>
            <property name="SupportedMimeTypes" type="as" access="read"/>
          </interface>
          <interface name="org.mpris.MediaPlayer2.Player">
            <method name="Play"/><method name="Pause"/><method name="PlayPause"/><method name="Stop"/>
            <method name="Next"/><method name="Previous"/>
            <property name="PlaybackStatus" type="s" access="read"/>
            <property name="Metadata" type="a{sv}" access="read"/>
            <property name="CanPlay" type="b" access="read"/>
            <property name="CanPause" type="b" access="read"/>
            <property name="CanControl" type="b" access="read"/>
          </interface>
          <interface name="org.freedesktop.DBus.Properties">
            <method name="Get"><arg type="s" direction="in"/><arg type="s" direction="in"/><arg type="v" direction="out"/></method>
            <method name="GetAll"><arg type="s" direction="in"/><arg type="a{sv}" direction="out"/></method>
          </interface>
        </node>
        """
}

import DBusKit
import Dispatch
import Foundation
import FrontEnd
import MPRIS
@testable import PlayerCore
import Testing
@testable import TestSupport

/// MPRISService in this process, on a private bus, with a host that runs a real `PlayerState`
/// as the daemon does (each call one turn, then PropertiesChanged): the wire behaviour of MPRIS
/// and of Aubade's own object in milliseconds, without the daemon or a sound server.
final class HostOnABus: PlayerHost, @unchecked Sendable {
    let bus: PrivateBus
    let serviceQueue = DispatchQueue(label: "test.mpris.service")
    let clientQueue = DispatchQueue(label: "test.mpris.client")
    private(set) var service: MPRISService!
    private var serviceConnection: Connection!
    private var clientConnection: Connection!
    private var player = PlayerState()
    private(set) var events: [Event] = []
    private let signalLog = LockedSignals()
    /// The service's unique name, where the client sends its calls.
    private(set) var destination = ""

    init(tracks: [Track] = []) throws {
        bus = try PrivateBus()
        try serviceQueue.sync {
            serviceConnection = try Connection(bus: .address(bus.address), queue: serviceQueue)
            service = try MPRISService(connection: serviceConnection, host: self)
            _ = try serviceConnection.requestName(MPRISNames.busName)
            if !tracks.isEmpty { handle(.enqueue(tracks, play: false)) }
        }
        let log = signalLog
        try clientQueue.sync {
            clientConnection = try Connection(bus: .address(bus.address), queue: clientQueue)
            clientConnection.onSignal = { log.append($0) }
            try clientConnection.addMatch("type='signal',sender='\(MPRISNames.busName)'")
        }
        destination = MPRISNames.busName
    }

    deinit {
        let (service, client) = (serviceConnection, clientConnection)
        serviceQueue.sync { service?.close() }
        clientQueue.sync { client?.close() }
        bus.stop()
    }

    // MARK: PlayerHost (on serviceQueue)

    var snapshot: PlayerSnapshot { player.snapshot }
    var position: Microseconds { player.position(at: Instant(microseconds: 0)) }
    var queue: PlayQueue { player.queue }
    var playlists: [PlaylistDescription] { [] }
    var activePlaylist: PlaylistDescription? { nil }

    func handle(_ event: Event) {
        events.append(event)
        let before = player.snapshot
        let effects = player.handle(event, at: Instant(microseconds: 0))
        service.playerDidTurn(PlayerTurn(event: event, before: before, after: player.snapshot, effects: effects,
                                         queue: player.queue, position: position))
    }

    func loadTracks(forURI uri: String, completion: @escaping (Result<[Track], FrontEndError>) -> Void) {
        completion(.failure(.invalidArgument("no files in this test")))
    }

    func saveQueue(asPlaylist name: String, completion: @escaping (Result<Void, FrontEndError>) -> Void) {
        completion(.success(()))
    }

    func activatePlaylist(_ playlist: PlaylistDescription, completion: @escaping (Result<Void, FrontEndError>) -> Void) {
        completion(.failure(.invalidArgument("no playlists")))
    }

    // MARK: The client

    /// A blocking call from the client connection; an error reply is returned as the error.
    func call(_ path: String, _ interface: String?, _ member: String, _ arguments: [DBusValue] = []) -> Result<[DBusValue], DBusError> {
        let destination = self.destination
        return clientQueue.sync { [clientConnection] in
            Result { () throws(DBusError) -> [DBusValue] in
                let message = try Message.methodCall(destination: destination, path: path, interface: interface,
                                                     member: member, arguments: arguments)
                let reply = try clientConnection!.callBlocking(message)
                if let error = reply.carriedError { throw error }
                return try reply.arguments()
            }
        }
    }

    func get(_ path: String, _ interface: String, _ name: String) -> Result<DBusValue, DBusError> {
        call(path, MPRISNames.propertiesInterface, "Get", [.string(interface), .string(name)]).map { $0.first?.unwrapped ?? .string("") }
    }

    /// The signals received so far. A call's signals are sent before its reply, and the bus
    /// keeps one sender's messages in order, so after a call returns its signals are here
    /// once the client's queue has dispatched them.
    var signals: [Message] { clientQueue.sync {}; return signalLog.all }
    var eventsSeen: [Event] { serviceQueue.sync { events } }
}

final class LockedSignals: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [Message] = []
    func append(_ message: Message) { lock.withLock { messages.append(message) } }
    var all: [Message] { lock.withLock { messages } }
}

@Suite struct ServiceOnABusTests {
    static let mpris = MPRISNames.objectPath
    static let aubade = MPRISNames.aubadePlayerPath

    private func tracks(_ count: Int) -> [Track] {
        (0..<count).map { Track(path: FilePath("/music/\($0).mp3")!, title: "Track \($0)", artists: ["Ann"], length: 3_000_000) }
    }

    @Test func aPlayerCallIsOneEventAndItsChangeIsAnnouncedOnTheMPRISObject() throws {
        let host = try HostOnABus(tracks: tracks(2))
        #expect(throws: Never.self) { try host.call(Self.mpris, MPRISNames.playerInterface, "Play").get() }
        #expect(host.eventsSeen.last == .play)
        let changed = host.signals.filter { $0.member == "PropertiesChanged" }
        let player = changed.first { (try? $0.arguments())?.first?.asString == MPRISNames.playerInterface }
        #expect(player?.path == Self.mpris)
        #expect((try? player?.arguments())??[1].asVardict?["PlaybackStatus"]?.unwrapped.asString == "Playing")
    }

    /// playerctld aborts on a PropertiesChanged for any other interface on the MPRIS object:
    /// the audio session's changes come from Aubade's own object.
    @Test func onlyMPRISInterfacesChangeOnTheMPRISObject() throws {
        let host = try HostOnABus(tracks: tracks(2))
        _ = try host.call(Self.mpris, MPRISNames.playerInterface, "Play").get()
        _ = try host.call(Self.aubade, MPRISNames.propertiesInterface, "Set",
                          [.string(MPRISNames.audioSessionInterface), .string("Category"), .variant(.string("mixWithOthers"))]).get()
        let changes = host.signals.filter { $0.member == "PropertiesChanged" }
        #expect(changes.contains { $0.path == Self.aubade && (try? $0.arguments())?.first?.asString == MPRISNames.audioSessionInterface })
        for change in changes where change.path == Self.mpris {
            let interface = (try? change.arguments())?.first?.asString ?? ""
            #expect(interface.hasPrefix("org.mpris.MediaPlayer2"), "\(interface) changed on the MPRIS object")
        }
    }

    @Test func eachObjectKnowsOnlyItsOwnInterfaces() throws {
        let host = try HostOnABus()
        let sessionOnMPRIS = host.get(Self.mpris, MPRISNames.audioSessionInterface, "Category")
        #expect(sessionOnMPRIS.failureName == DBusError.unknownInterfaceName)
        let playerOnAubade = host.get(Self.aubade, MPRISNames.playerInterface, "PlaybackStatus")
        #expect(playerOnAubade.failureName == DBusError.unknownInterfaceName)
        #expect(try host.get(Self.aubade, MPRISNames.audioSessionInterface, "Category").get() == .string("playback"))
        #expect(try host.get(Self.mpris, MPRISNames.playerInterface, "PlaybackStatus").get() == .string("Stopped"))
        let queueOnMPRIS = host.call(Self.mpris, QueueInterface.name, "Clear")
        #expect(queueOnMPRIS.failureName == DBusError.unknownInterfaceName)
        #expect(throws: Never.self) { try host.call(Self.aubade, QueueInterface.name, "Clear").get() }
    }

    @Test func everyPropertyHasTheTypeTheSpecNames() throws {
        let host = try HostOnABus(tracks: tracks(1))
        let all = try host.call(Self.mpris, MPRISNames.propertiesInterface, "GetAll", [.string(MPRISNames.playerInterface)]).get()
        let properties = try #require(all.first?.asVardict)
        let expected = ["PlaybackStatus": "s", "LoopStatus": "s", "Rate": "d", "Shuffle": "b", "Metadata": "a{sv}",
                        "Volume": "d", "Position": "x", "MinimumRate": "d", "MaximumRate": "d", "CanGoNext": "b",
                        "CanGoPrevious": "b", "CanPlay": "b", "CanPause": "b", "CanSeek": "b", "CanControl": "b"]
        #expect(properties.mapValues { $0.unwrapped.signature } == expected)
        let metadata = try #require(properties["Metadata"]?.unwrapped.asVardict)
        #expect(metadata["xesam:artist"]?.unwrapped.signature == "as")
        #expect(metadata["mpris:length"]?.unwrapped.signature == "x")
        #expect(metadata["mpris:trackid"]?.unwrapped.signature == "o")
    }

    @Test func wrongCallsAreRefusedAndChangeNothing() throws {
        let host = try HostOnABus(tracks: tracks(1))
        #expect(host.call(Self.mpris, MPRISNames.playerInterface, "Seek", [.string("x")]).failureName == DBusError.invalidArgsName)
        #expect(host.call(Self.mpris, MPRISNames.propertiesInterface, "Set",
                          [.string(MPRISNames.playerInterface), .string("PlaybackStatus"), .variant(.string("Playing"))])
                .failureName == DBusError.propertyReadOnlyName)
        #expect(host.call(Self.aubade, MPRISNames.propertiesInterface, "Set",
                          [.string(MPRISNames.audioSessionInterface), .string("Category"), .variant(.int32(1))])
                .failureName == DBusError.invalidArgsName)
        #expect(host.eventsSeen.allSatisfy { if case .enqueue = $0 { true } else { false } })
    }

    @Test func aSeekIsFollowedBySeekedFromTheMPRISObject() throws {
        let host = try HostOnABus(tracks: tracks(1))
        _ = try host.call(Self.mpris, MPRISNames.playerInterface, "Pause").get()
        _ = try host.call(Self.mpris, MPRISNames.playerInterface, "Seek", [.int64(1_000_000)]).get()
        let seeked = host.signals.first { $0.member == "Seeked" }
        #expect(seeked?.path == Self.mpris)
        #expect(seeked?.interface == MPRISNames.playerInterface)
        #expect((try? seeked?.arguments())??.first == .int64(1_000_000))
    }

    @Test func introspectionOfEachObjectIsItsFile() throws {
        let host = try HostOnABus()
        let mpris = try host.call(Self.mpris, MPRISNames.introspectableInterface, "Introspect").get().first?.asString
        let aubade = try host.call(Self.aubade, MPRISNames.introspectableInterface, "Introspect").get().first?.asString
        #expect(mpris?.contains("<interface name=\"org.mpris.MediaPlayer2.Player\">") == true)
        #expect(mpris?.contains("org.aubade.AudioSession1") == false)
        #expect(aubade?.contains("<interface name=\"org.aubade.AudioSession1\">") == true)
        #expect(aubade?.contains("<interface name=\"org.aubade.Queue1\">") == true)
    }
}

extension Result where Failure == DBusError {
    var failureName: String? {
        if case .failure(let error) = self { return error.name }
        return nil
    }
}

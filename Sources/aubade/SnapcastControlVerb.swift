import DBusKit
import Dispatch
import Glibc
import MPRIS
import SnapcastControl

/// `aubade snapcast-control` (also started as `aubade-snapcast`, the name snapserver's
/// `controlscript=` runs, which passes no verb): Snapcast's stream plugin. snapserver writes
/// JSON-RPC requests on our stdin and reads answers and notifications on our stdout; we
/// turn them into MPRIS calls on the daemon, and every change of the daemon's MPRIS properties
/// (PropertiesChanged, Seeked, the daemon coming or going) into
/// `Plugin.Stream.Player.Properties`, pushed at once, never polled.
///
/// Everything runs on one queue ("aubade.snapcast-control"): the session bus, stdin, the
/// writes to stdout. A cover file is read on a global queue and hops back. Hostile input gets a
/// JSON-RPC error and changes nothing: lines are capped (`lineLimit`, a longer one is skipped),
/// JSON nesting is capped, at most `callLimit` MPRIS calls wait at once.
final class SnapcastControlSession: @unchecked Sendable {
    // @unchecked Sendable: every member is used on `queue` only.
    static let lineLimit = 64 * 1024
    static let callLimit = 32

    private let queue: DispatchQueue
    private let connection: Connection
    private var mirror = PlayerMirror()
    private var reader = LineReader(limit: lineLimit)
    private var input: DispatchSourceRead?
    private var callsInFlight = 0
    /// The cover sent as data, for the art URL it was read from.
    private var cover: (url: String, art: CoverArt?)?
    /// Bumped by every refresh, so an older GetAll answer does not overwrite a newer one.
    private var refreshes = 0
    private let stream: String

    init(queue: DispatchQueue, stream: String) throws(DBusError) {
        self.queue = queue
        self.stream = stream
        connection = try Connection(bus: .session, queue: queue)
    }

    func start() {
        dispatchPrecondition(condition: .onQueue(queue))
        connection.onDisconnect = {
            Self.log("lost the D-Bus session bus; exiting")
            exit(1)
        }
        connection.onSignal = { [unowned self] message in signal(message) }
        do throws(DBusError) {
            try connection.addMatch("type='signal',sender='\(MPRISNames.busName)',path='\(MPRISNames.objectPath)',interface='\(MPRISNames.propertiesInterface)',member='PropertiesChanged'")
            try connection.addMatch("type='signal',sender='\(MPRISNames.busName)',path='\(MPRISNames.objectPath)',interface='\(MPRISNames.playerInterface)',member='Seeked'")
            try connection.addMatch("type='signal',sender='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(MPRISNames.busName)'")
        } catch {
            Self.log("cannot follow the player's signals: \(error.message)")
        }
        send(StreamPluginReply.notification("Plugin.Stream.Ready"))
        refresh()
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        input.setEventHandler { [unowned self] in readInput() }
        input.resume()
        self.input = input
        Self.log("serving stream \(stream) for \(MPRISNames.busName)")
    }

    // MARK: stdin

    private func readInput() {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
        if count < 0, errno == EINTR || errno == EAGAIN { return }
        guard count > 0 else {
            // snapserver closed our stdin: the stream is gone.
            Self.log("stdin closed; exiting")
            exit(0)
        }
        for item in reader.feed(chunk[0..<count]) {
            switch item {
            case .tooLong:
                send(StreamPluginReply.error(id: .null, JSONRPCError(code: .invalidRequest, message: "Invalid Request",
                                                                      data: "line longer than \(Self.lineLimit) bytes")))
            case .line(let line):
                guard !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) else { continue }
                handle(StreamPluginMessage.parse(line))
            }
        }
    }

    private func handle(_ message: StreamPluginMessage) {
        switch message {
        case .ignored: break
        case .invalid(let id, let error): send(StreamPluginReply.error(id: id, error))
        case .request(let id, let command): perform(command, id: id)
        }
    }

    private func perform(_ command: StreamPluginCommand, id: JSONValue) {
        switch command {
        case .getProperties:
            send(StreamPluginReply.result(id: id, properties))
        case .getMetadata:
            send(StreamPluginReply.result(id: id, mirror.track.metadata(cover: currentCover)))
        case .control(let transport):
            switch transport {
            case .play: callPlayer("Play", id: id)
            case .pause: callPlayer("Pause", id: id)
            case .playPause: callPlayer("PlayPause", id: id)
            case .stop: callPlayer("Stop", id: id)
            case .next: callPlayer("Next", id: id)
            case .previous: callPlayer("Previous", id: id)
            case .seek(let seconds): callPlayer("Seek", [.int64(Int64((seconds * 1e6).rounded()))], id: id)
            case .setPosition(let seconds):
                guard let track = mirror.track.trackID, mirror.isRunning else {
                    return send(StreamPluginReply.error(id: id, JSONRPCError(code: .internalError, message: "no current track")))
                }
                callPlayer("SetPosition", [.objectPath(track), .int64(Int64((seconds * 1e6).rounded()))], id: id)
            }
        case .setProperty(let change):
            let (name, value): (String, DBusValue) = switch change {
            case .loopStatus(let status): ("LoopStatus", .string(status == "track" ? "Track" : status == "playlist" ? "Playlist" : "None"))
            case .shuffle(let on): ("Shuffle", .boolean(on))
            case .volume(let percent): ("Volume", .double(Double(percent) / 100))
            case .rate(let rate): ("Rate", .double(rate))
            }
            call(MPRISNames.propertiesInterface, "Set", [.string(MPRISNames.playerInterface), .string(name), .variant(value)], id: id)
        }
    }

    private func callPlayer(_ member: String, _ arguments: [DBusValue] = [], id: JSONValue) {
        call(MPRISNames.playerInterface, member, arguments, id: id)
    }

    /// One MPRIS call for one request; its answer is the request's answer.
    private func call(_ interface: String, _ member: String, _ arguments: [DBusValue], id: JSONValue) {
        guard callsInFlight < Self.callLimit else {
            return send(StreamPluginReply.error(id: id, JSONRPCError(code: .internalError, message: "busy: too many requests at once")))
        }
        do throws(DBusError) {
            let message = try Message.methodCall(destination: MPRISNames.busName, path: MPRISNames.objectPath,
                                                 interface: interface, member: member, arguments: arguments)
            callsInFlight += 1
            try connection.call(message, timeoutMilliseconds: 10_000) { [unowned self] result in
                callsInFlight -= 1
                switch result {
                case .success(let reply):
                    if let error = reply.carriedError {
                        send(StreamPluginReply.error(id: id, JSONRPCError(code: .internalError, message: error.message)))
                    } else {
                        send(StreamPluginReply.result(id: id, "ok"))
                    }
                case .failure(let error):
                    send(StreamPluginReply.error(id: id, JSONRPCError(code: .internalError, message: Self.explain(error))))
                }
            }
        } catch {
            callsInFlight = max(0, callsInFlight - 1)
            send(StreamPluginReply.error(id: id, JSONRPCError(code: .internalError, message: error.message)))
        }
    }

    private static func explain(_ error: DBusError) -> String {
        if error.name == "org.freedesktop.DBus.Error.ServiceUnknown" || error.name == "org.freedesktop.DBus.Error.NameHasNoOwner" {
            return "aubade is not running"
        }
        return error.message
    }

    // MARK: The player's side

    private func signal(_ message: Message) {
        guard let member = message.member, let arguments = try? message.arguments() else { return }
        switch (message.interface, member) {
        case (MPRISNames.propertiesInterface?, "PropertiesChanged"):
            guard arguments.first?.asString == MPRISNames.playerInterface, let changed = arguments.dropFirst().first?.asVardict else { return }
            apply(changed)
            // The position is not signalled: it is read, and the change pushed with it.
            refreshPosition()
        case (MPRISNames.playerInterface?, "Seeked"):
            guard let position = arguments.first?.asInt64 else { return }
            mirror.position = position
            mirror.positionTime = Self.now()
            push()
        case (_, "NameOwnerChanged"):
            guard arguments.count == 3, arguments[0].asString == MPRISNames.busName else { return }
            if arguments[2].asString?.isEmpty == false {
                refresh()
            } else {
                mirror = PlayerMirror()
                push()
            }
        default:
            break
        }
    }

    /// GetAll of the player: everything afresh (at start, and when the daemon appears).
    private func refresh() {
        refreshes += 1
        let generation = refreshes
        do throws(DBusError) {
            let message = try Message.methodCall(destination: MPRISNames.busName, path: MPRISNames.objectPath,
                                                 interface: MPRISNames.propertiesInterface, member: "GetAll",
                                                 arguments: [.string(MPRISNames.playerInterface)])
            // Never starts the daemon just to look: snapserver starts this script with the stream.
            message.setAutoStart(false)
            try connection.call(message, timeoutMilliseconds: 10_000) { [unowned self] result in
                guard generation == refreshes else { return }
                if case .success(let reply) = result, reply.carriedError == nil,
                   let properties = (try? reply.arguments())?.first?.asVardict {
                    mirror.isRunning = true
                    apply(properties)
                } else {
                    mirror = PlayerMirror()
                }
                push()
            }
        } catch {
            push()
        }
    }

    private func refreshPosition() {
        do throws(DBusError) {
            let message = try Message.methodCall(destination: MPRISNames.busName, path: MPRISNames.objectPath,
                                                 interface: MPRISNames.propertiesInterface, member: "Get",
                                                 arguments: [.string(MPRISNames.playerInterface), .string("Position")])
            message.setAutoStart(false)
            try connection.call(message, timeoutMilliseconds: 5_000) { [unowned self] result in
                if case .success(let reply) = result, let position = (try? reply.arguments())?.first?.unwrapped.asInt64 {
                    mirror.position = position
                    mirror.positionTime = Self.now()
                }
                push()
            }
        } catch {
            push()
        }
    }

    private func apply(_ changed: [String: DBusValue]) {
        let now = Self.now()
        // The position runs on to the moment of the change before the status changes.
        mirror.position = mirror.position(at: now)
        mirror.positionTime = now
        for (name, value) in changed {
            let value = value.unwrapped
            switch name {
            case "PlaybackStatus": mirror.status = value.asString ?? mirror.status
            case "LoopStatus": mirror.loopStatus = value.asString ?? mirror.loopStatus
            case "Shuffle": mirror.shuffle = value.asBool ?? mirror.shuffle
            case "Volume": mirror.volume = value.asDouble ?? mirror.volume
            case "Rate": mirror.rate = value.asDouble ?? mirror.rate
            case "Position": mirror.position = value.asInt64 ?? mirror.position
            case "CanGoNext": mirror.canGoNext = value.asBool ?? false
            case "CanGoPrevious": mirror.canGoPrevious = value.asBool ?? false
            case "CanPlay": mirror.canPlay = value.asBool ?? false
            case "CanPause": mirror.canPause = value.asBool ?? false
            case "CanSeek": mirror.canSeek = value.asBool ?? false
            case "Metadata": mirror.track = Self.track(value.asVardict ?? [:])
            default: break
            }
        }
        loadCoverIfNeeded()
    }

    private static func track(_ metadata: [String: DBusValue]) -> TrackMetadata {
        var track = TrackMetadata()
        track.trackID = metadata["mpris:trackid"]?.unwrapped.asObjectPath ?? metadata["mpris:trackid"]?.unwrapped.asString
        track.title = metadata["xesam:title"]?.unwrapped.asString
        track.artists = metadata["xesam:artist"]?.unwrapped.asStringArray ?? []
        track.album = metadata["xesam:album"]?.unwrapped.asString
        track.albumArtists = metadata["xesam:albumArtist"]?.unwrapped.asStringArray ?? []
        track.genres = metadata["xesam:genre"]?.unwrapped.asStringArray ?? []
        track.length = metadata["mpris:length"]?.unwrapped.asInt64
        track.url = metadata["xesam:url"]?.unwrapped.asString
        track.artURL = metadata["mpris:artUrl"]?.unwrapped.asString
        track.trackNumber = metadata["xesam:trackNumber"]?.unwrapped.asInt64
        track.discNumber = metadata["xesam:discNumber"]?.unwrapped.asInt64
        return track
    }

    // MARK: The cover

    private var currentCover: CoverArt? {
        guard let url = mirror.track.artURL, let cover, cover.url == url else { return nil }
        return cover.art
    }

    /// A cover in a local file is sent as data (remote Snapcast clients cannot open our
    /// file:// URL); read off the queue, at most `CoverArt.byteLimit`, then pushed again.
    private func loadCoverIfNeeded() {
        guard let url = mirror.track.artURL, url.hasPrefix("file://"), cover?.url != url else { return }
        cover = (url, nil)
        let path = Self.path(ofFileURL: url)
        DispatchQueue.global(qos: .utility).async { [weak self] in
            let art = path.flatMap(Self.readSmallFile).flatMap(CoverArt.init(bytes:))
            guard let self else { return }
            queue.async { [self] in
                guard cover?.url == url, let art else { return }
                cover = (url, art)
                push()
            }
        }
    }

    static func path(ofFileURL url: String) -> String? {
        guard url.hasPrefix("file://") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = Array(url.utf8.dropFirst("file://".count))[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A regular file's bytes, or nil when it is not one or is larger than the cover limit.
    static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= CoverArt.byteLimit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        return Array(bytes[0..<done])
    }

    // MARK: stdout

    private var properties: JSONValue { mirror.properties(at: Self.now(), cover: currentCover) }

    private func push() {
        send(StreamPluginReply.notification("Plugin.Stream.Player.Properties", properties))
    }

    private func send(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                // snapserver is gone: nothing to answer any more.
                exit(0)
            }
            written += count
        }
    }

    static func log(_ text: String) {
        // snapserver logs our stderr with the stream's name.
        let line = "aubade snapcast-control: \(text)\n"
        _ = line.withCString { write(STDERR_FILENO, $0, strlen($0)) }
    }

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000
    }
}

enum SnapcastControlVerb {
    /// The name under which snapserver's `controlscript=` runs it (a link to aubade).
    static let programName = "aubade-snapcast"

    /// `aubade snapcast-control [--stream=ID] [--snapcast-port=N]…`: the arguments snapserver
    /// passes are taken and ignored but for the stream's name (logged).
    static func run(_ arguments: [String]) -> Int32 {
        var stream = "?"
        for argument in arguments {
            if argument.hasPrefix("--stream=") {
                stream = String(argument.dropFirst("--stream=".count))
            } else if argument.hasPrefix("--") {
                continue  // --snapcast-host=, --snapcast-port=, and whatever later versions add
            } else {
                CommandLineInterface.printError("aubade snapcast-control: takes no operands (\(argument))")
                return 64
            }
        }
        signal(SIGPIPE, SIG_IGN)
        let queue = DispatchQueue(label: "aubade.snapcast-control")
        let session = queue.sync { () -> SnapcastControlSession? in
            do throws(DBusError) {
                let session = try SnapcastControlSession(queue: queue, stream: stream)
                session.start()
                return session
            } catch {
                SnapcastControlSession.log("cannot reach the session bus: \(error.message)")
                return nil
            }
        }
        guard let session else { return 1 }
        withExtendedLifetime(session) { dispatchMain() }
    }
}

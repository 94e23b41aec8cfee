import JSON
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

    let queue: DispatchQueue
    let connection: Connection
    var mirror = PlayerMirror()
    private var reader = LineReader(limit: lineLimit)
    private var input: DispatchSourceRead?
    private var callsInFlight = 0
    /// The cover sent as data, for the art URL it was read from.
    var cover: (url: String, art: CoverArt?)?
    /// Bumped by every refresh, so an older GetAll answer does not overwrite a newer one.
    var refreshes = 0
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
        // Non-blocking, and read to the end of what is there at each event: a request and the
        // end of input that arrive together are one readiness event, and a reader that took one
        // chunk per event never saw the end (it hung, never exiting, seen by hand).
        let flags = fcntl(STDIN_FILENO, F_GETFL)
        if flags >= 0 { _ = fcntl(STDIN_FILENO, F_SETFL, flags | O_NONBLOCK) }
        let input = DispatchSource.makeReadSource(fileDescriptor: STDIN_FILENO, queue: queue)
        input.setEventHandler { [unowned self] in readInput() }
        input.resume()
        self.input = input
        Self.log("serving stream \(stream) for \(MPRISNames.busName)")
    }

    // MARK: stdin

    private func readInput() {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                Self.log("cannot read stdin (errno \(errno)); exiting")
                exit(1)
            }
            guard count > 0 else {
                // snapserver closed our stdin: the stream is gone. What was asked before is
                // answered first (the calls in flight).
                Self.log("stdin closed; exiting")
                finish()
                return
            }
            handle(chunk[0..<count])
        }
    }

    /// Stops reading; exits once every MPRIS call still in flight has been answered on stdout
    /// (each answer is a line snapserver may still read), or after at most 2 s.
    private func finish() {
        input?.cancel()
        input = nil
        exitOnceAnswered(by: .now() + 2)
    }

    private func exitOnceAnswered(by deadline: DispatchTime) {
        if callsInFlight == 0 || DispatchTime.now() >= deadline { exit(0) }
        queue.asyncAfter(deadline: .now() + 0.01) { [self] in exitOnceAnswered(by: deadline) }
    }

    private func handle(_ bytes: ArraySlice<UInt8>) {
        for item in reader.feed(bytes) {
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

    // MARK: stdout

    var properties: JSONValue { mirror.properties(at: Self.now(), cover: currentCover) }

    func push() {
        send(StreamPluginReply.notification("Plugin.Stream.Player.Properties", properties))
    }

    func send(_ line: String) {
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

internal import DBusKit
internal import PlayerCore

/// org.mpris.MediaPlayer2 and org.mpris.MediaPlayer2.Player methods: each becomes one event.
extension MPRISService {
    func callRoot(_ member: String, _ message: Message) throws(DBusError) -> [DBusValue] {
        switch member {
        case "Raise":
            try expect("", message)
            return []  // CanRaise is false: there is no window to raise.
        case "Quit":
            try expect("", message)
            hostForExtensions.handle(.quit)
            return []
        default:
            throw unknownMethod(member, message)
        }
    }

    func callPlayer(_ member: String, _ message: Message) throws(DBusError) -> [DBusValue] {
        let host = hostForExtensions
        switch member {
        case "Next": try expect("", message); host.handle(.next)
        case "Previous": try expect("", message); host.handle(.previous)
        case "Pause": try expect("", message); host.handle(.pause)
        case "PlayPause": try expect("", message); host.handle(.playPause)
        case "Stop": try expect("", message); host.handle(.stop)
        case "Play": try expect("", message); host.handle(.play)
        case "Seek":
            try expect("x", message)
            guard case .int64(let offset)? = try message.arguments().first else { throw .invalidArgs("Seek takes x") }
            host.handle(.seek(by: offset))
        case "SetPosition":
            try expect("ox", message)
            let arguments = try message.arguments()
            guard arguments.count == 2, case .objectPath(let path) = arguments[0],
                  case .int64(let position) = arguments[1] else { throw .invalidArgs("SetPosition takes (o, x)") }
            // A track id that is not one of ours can never be current: ignored, as the spec says.
            if let entry = TrackPath.entry(from: path) { host.handle(.setPosition(entry, position)) }

        default:
            throw unknownMethod(member, message)
        }
        return []
    }

    func openUri(_ message: Message, reply: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        do throws(DBusError) {
            try expect("s", message)
            guard case .string(let uri)? = try message.arguments().first else { throw .invalidArgs("OpenUri takes s") }
            hostForExtensions.loadTracks(forURI: uri) { [weak self] result in
                switch result {
                case .success(let tracks):
                    self?.hostForExtensions.handle(.open(tracks))
                    reply(.success([]))
                case .failure(let error):
                    reply(.failure(DBusError(error)))
                }
            }
        } catch {
            reply(.failure(error))
        }
    }
}

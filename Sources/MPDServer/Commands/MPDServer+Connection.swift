import MPDProtocol
import PlayerCore

/// The connection's own commands: who the client is, what it may do and wants to hear.
extension MPDServer {
    func runConnection(_ command: MPDCommand, for client: MPDClient, reply: Reply) {
        switch command {
        case .kill:
            // mpd quits; so does the daemon (as MPRIS Quit), after answering.
            log(.notice, "MPD client \(client.number) asked the daemon to stop (kill)")
            frontEnd.perform(.quit) { _ in }
            reply(.close)
        case .commands:
            reply(answer { $0.commandNames(CommandTable.available(to: client.permissions)) })
        case .notCommands:
            reply(answer { $0.commandNames(CommandTable.unavailable(to: client.permissions)) })
        case .password(let secret):
            // Compared against every password: a match gives that one's permissions.
            guard let permissions = settings.passwords[secret] else { return reply(.failure(.incorrectPassword)) }
            client.permissions = permissions
            reply(Self.ok)
        case .binaryLimit(let size):
            client.binaryLimit = size
            reply(Self.ok)
        case .tagTypes(let request):
            switch request {
            case .list: return reply(answer { $0.tagTypes(client.tags) })
            case .all: client.tags = ResponseWriter.allTags
            case .clear: client.tags = []
            case .enable(let kinds): client.tags.formUnion(kinds)
            case .disable(let kinds): client.tags.subtract(kinds)
            }
            reply(Self.ok)
        default:
            reply(.failure(MPDError(.unknown, "unknown command")))
        }
    }
}

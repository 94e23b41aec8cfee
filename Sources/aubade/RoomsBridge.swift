import SnapcastRooms
import WebFrontEnd

/// The Snapcast client's rooms as the page's `RoomsControl`: the one place that knows both
/// (the front-end knows no sockets, the client no page). Volumes: snapserver's 0…100, the
/// page's 0…1.
final class RoomsBridge: RoomsControl {
    let client: SnapcastRoomsClient

    init(client: SnapcastRoomsClient) {
        self.client = client
    }

    var currentRooms: [RoomFacts]? { client.rooms.map(Self.facts) }

    func setRoom(id: String, volume: Double?, muted: Bool?,
                 completion: @escaping @Sendable (Result<Void, RoomsControlError>) -> Void) {
        client.set(id: id, percent: volume.map { Int(($0 * 100).rounded()) }, muted: muted) { result in
            switch result {
            case .success: completion(.success(()))
            case .failure(.unavailable(let why)): completion(.failure(.unavailable(why)))
            case .failure(.failed(let why)): completion(.failure(.failed(why)))
            }
        }
    }

    func observeRooms(_ handler: @escaping @Sendable ([RoomFacts]?) -> Void) {
        client.onChange { rooms in handler(rooms.map(Self.facts)) }
    }

    private static func facts(_ rooms: [SnapcastRoom]) -> [RoomFacts] {
        rooms.map { RoomFacts(id: $0.id, name: $0.name, volume: Double($0.percent) / 100, muted: $0.muted, connected: $0.connected) }
    }
}

internal import DBusKit
public import PlayerCore

/// org.mpris.MediaPlayer2.TrackList: the queue, read and edited from outside.
extension MPRISService {
    /// Above this many tracks at once, one TrackListReplaced says more than a flood of
    /// TrackAdded signals (MPRIS allows either).
    static let trackAddedSignalLimit = 50

    func callTrackList(_ member: String, _ message: Message) throws(DBusError) -> [DBusValue] {
        let host = hostForExtensions
        switch member {
        case "GetTracksMetadata":
            try expect("ao", message)
            guard let paths = try message.arguments().first?.asObjectPathArray else { throw .invalidArgs("GetTracksMetadata takes ao") }
            // Unknown ids are left out, as the spec allows.
            let metadata = paths.compactMap { path -> DBusValue? in
                guard let id = TrackPath.entry(from: path), let entry = host.queue.entry(id) else { return nil }
                return Metadata.value(for: entry)
            }
            return [.array(elementSignature: "a{sv}", metadata)]
        case "RemoveTrack", "GoTo":
            try expect("o", message)
            guard let path = try message.arguments().first?.asObjectPath else { throw .invalidArgs("\(member) takes o") }
            guard let id = TrackPath.entry(from: path), host.queue.contains(id) else {
                throw .invalidArgs("no track \(path) in the tracklist")
            }
            host.handle(member == "GoTo" ? .goTo(id) : .removeTrack(id))
            return []
        default:
            throw unknownMethod(member, message)
        }
    }

    /// AddTrack loads files off the bus's queue, so a big folder does not hold up other calls;
    /// the reply comes when the tracks are in.
    func addTrack(_ message: Message, reply: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        do throws(DBusError) {
            try expect("sob", message)
            let arguments = try message.arguments()
            guard arguments.count == 3, case .string(let uri) = arguments[0], case .objectPath(let after) = arguments[1],
                  case .boolean(let makeCurrent) = arguments[2] else { throw .invalidArgs("AddTrack takes (s, o, b)") }
            let host = hostForExtensions
            let place: QueuePlace
            if after == TrackPath.noTrack {
                place = .atStart
            } else if let id = TrackPath.entry(from: after), host.queue.contains(id) {
                place = .after(id)
            } else {
                throw .invalidArgs("AfterTrack \(after) is not in the tracklist")
            }
            host.loadTracks(forURI: uri) { [weak self] result in
                switch result {
                case .success(let tracks):
                    self?.hostForExtensions.handle(.addTracks(tracks, at: place, makeCurrent: makeCurrent))
                    reply(.success([]))
                case .failure(let error):
                    reply(.failure(DBusError(error)))
                }
            }
        } catch {
            reply(.failure(error))
        }
    }

    /// The TrackList signals for one change of the queue, and `Tracks` invalidated.
    public func announceTrackListChange(_ change: TrackListChange, queue: PlayQueue, current: EntryID?) {
        switch change {
        case .added(let ids, let after) where ids.count <= Self.trackAddedSignalLimit:
            var previous = after
            for id in ids {
                guard let entry = queue.entry(id) else { continue }
                emit(member: "TrackAdded", interface: MPRISNames.trackListInterface,
                     [Metadata.value(for: entry), .objectPath(previous.map(TrackPath.path(for:)) ?? TrackPath.noTrack)])
                previous = id
            }
        case .removedSeveral(let ids) where ids.count <= Self.trackAddedSignalLimit:
            for id in ids {
                emit(member: "TrackRemoved", interface: MPRISNames.trackListInterface, [.objectPath(TrackPath.path(for: id))])
            }
        case .added, .replaced, .removedSeveral, .reordered:
            // MPRIS has no signal for a new order; many changes at once are one replacement.
            emit(member: "TrackListReplaced", interface: MPRISNames.trackListInterface,
                 [tracksValue(queue), .objectPath(current.map(TrackPath.path(for:)) ?? TrackPath.noTrack)])
        case .removed(let id):
            emit(member: "TrackRemoved", interface: MPRISNames.trackListInterface, [.objectPath(TrackPath.path(for: id))])
        case .metadataChanged(let id):
            guard let entry = queue.entry(id) else { return }
            emit(member: "TrackMetadataChanged", interface: MPRISNames.trackListInterface,
                 [.objectPath(TrackPath.path(for: id)), Metadata.value(for: entry)])
            return  // Tracks (the list of ids) did not change.
        }
        emit(member: "PropertiesChanged", interface: MPRISNames.propertiesInterface,
             [.string(MPRISNames.trackListInterface), .vardict([]), .stringArray(["Tracks"])])
    }

    func tracksValue(_ queue: PlayQueue) -> DBusValue {
        .objectPathArray(queue.entries.map { TrackPath.path(for: $0.id) })
    }

    func trackListProperty(_ name: String) -> DBusValue? {
        switch name {
        case "Tracks": return tracksValue(hostForExtensions.queue)
        case "CanEditTracks": return .boolean(true)
        default: return nil
        }
    }
}

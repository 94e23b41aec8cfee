internal import DBusKit
public import FrontEnd
internal import PlayerCore

/// org.mpris.MediaPlayer2.Playlists: the saved playlists, listed and activated.
extension MPRISService {
    static let orderings = ["Alphabetical", "CreationDate", "ModifiedDate", "UserDefined"]

    func callPlaylists(_ member: String, _ message: Message) throws(DBusError) -> [DBusValue] {
        guard member == "GetPlaylists" else { throw unknownMethod(member, message) }
        try expect("uusb", message)
        let arguments = try message.arguments()
        guard arguments.count == 4, case .uint32(let index) = arguments[0], case .uint32(let maxCount) = arguments[1],
              case .string(let order) = arguments[2], case .boolean(let reverse) = arguments[3]
        else { throw .invalidArgs("GetPlaylists takes (u, u, s, b)") }
        guard Self.orderings.contains(order) else {
            throw .invalidArgs("unknown ordering \"\(order)\"; one of \(Self.orderings.joined(separator: ", "))")
        }
        var sorted = Self.sort(hostForExtensions.playlists, by: order)
        if reverse { sorted.reverse() }
        let page = sorted.dropFirst(Int(index)).prefix(Int(maxCount))
        return [.array(elementSignature: "(oss)", page.map(Self.value(of:)))]
    }

    func activatePlaylist(_ message: Message, reply: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        do throws(DBusError) {
            try expect("o", message)
            guard let path = try message.arguments().first?.asObjectPath else { throw .invalidArgs("ActivatePlaylist takes o") }
            let host = hostForExtensions
            guard let playlist = host.playlists.first(where: { $0.objectPath == path }) else {
                throw .invalidArgs("no playlist \(path)")
            }
            host.activatePlaylist(playlist) { result in reply(result.map { [] }.mapError(DBusError.init)) }
        } catch {
            reply(.failure(error))
        }
    }

    func playlistsProperty(_ name: String) -> DBusValue? {
        let host = hostForExtensions
        switch name {
        case "PlaylistCount": return .uint32(UInt32(clamping: host.playlists.count))
        case "Orderings": return .stringArray(Self.orderings)
        case "ActivePlaylist":
            guard let active = host.activePlaylist else {
                return .structure([.boolean(false), .structure([.objectPath("/"), .string(""), .string("")])])
            }
            return .structure([.boolean(true), Self.value(of: active)])
        default: return nil
        }
    }

    /// After the playlists folder or the active playlist changed: PlaylistCount / ActivePlaylist
    /// in PropertiesChanged, PlaylistChanged for each playlist whose name or icon changed.
    public func announcePlaylistChanges(from old: [PlaylistDescription], to new: [PlaylistDescription],
                                        activeBefore: PlaylistDescription?, activeNow: PlaylistDescription?) {
        var changed: [(String, DBusValue)] = []
        if old.count != new.count, let count = playlistsProperty("PlaylistCount") { changed.append(("PlaylistCount", count)) }
        if activeBefore != activeNow, let active = playlistsProperty("ActivePlaylist") { changed.append(("ActivePlaylist", active)) }
        if !changed.isEmpty {
            emit(member: "PropertiesChanged", interface: MPRISNames.propertiesInterface,
                 [.string(MPRISNames.playlistsInterface), .vardict(changed), .stringArray([])])
        }
        for playlist in new {
            if let before = old.first(where: { $0.objectPath == playlist.objectPath }),
               before.name != playlist.name || before.icon != playlist.icon {
                emit(member: "PlaylistChanged", interface: MPRISNames.playlistsInterface, [Self.value(of: playlist)])
            }
        }
    }

    static func value(of playlist: PlaylistDescription) -> DBusValue {
        .structure([.objectPath(playlist.objectPath), .string(playlist.name), .string(playlist.icon)])
    }

    static func sort(_ playlists: [PlaylistDescription], by order: String) -> [PlaylistDescription] {
        switch order {
        case "CreationDate": return playlists.sorted { ($0.created, $0.name) < ($1.created, $1.name) }
        case "ModifiedDate": return playlists.sorted { ($0.modified, $0.name) < ($1.modified, $1.name) }
        case "UserDefined": return playlists.sorted { $0.userOrder < $1.userOrder }
        default: return playlists.sorted { $0.name.lowercased() < $1.name.lowercased() }
        }
    }
}

/// org.aubade.Queue1: clearing the queue and saving it as a playlist.
extension MPRISService {
    /// SaveAsPlaylist writes a file: it answers when the file is written, and other calls are
    /// served meanwhile.
    func saveAsPlaylist(_ message: Message, reply: @escaping (Result<[DBusValue], DBusError>) -> Void) {
        do throws(DBusError) {
            try expect("s", message)
            guard case .string(let name)? = try message.arguments().first else { throw .invalidArgs("SaveAsPlaylist takes s") }
            hostForExtensions.saveQueue(asPlaylist: name) { result in reply(result.map { [] }.mapError(DBusError.init)) }
        } catch {
            reply(.failure(error))
        }
    }

    func callQueue(_ member: String, _ message: Message) throws(DBusError) -> [DBusValue] {
        let host = hostForExtensions
        switch member {
        case "Clear":
            try expect("", message)
            host.handle(.replaceQueue([], play: false))
        default:
            throw unknownMethod(member, message)
        }
        return []
    }
}

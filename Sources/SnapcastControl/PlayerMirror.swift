public import JSON

/// The player as the control script follows it over MPRIS (GetAll, then PropertiesChanged and
/// Seeked), and as Snapcast's stream-plugin protocol describes it
/// (`Plugin.Stream.Player.Properties`).
public struct PlayerMirror: Sendable, Equatable {
    /// Whether the player is on the bus at all.
    public var isRunning = false
    /// MPRIS PlaybackStatus: Playing, Paused, Stopped.
    public var status = "Stopped"
    /// MPRIS LoopStatus: None, Track, Playlist.
    public var loopStatus = "None"
    public var shuffle = false
    /// 1.0 = 100 %.
    public var volume = 1.0
    public var rate = 1.0
    public var canGoNext = false
    public var canGoPrevious = false
    public var canPlay = false
    public var canPause = false
    public var canSeek = false
    public var track = TrackMetadata()
    /// The position (µs) read at `positionTime` (monotonic µs): it runs on while Playing.
    public var position: Int64 = 0
    public var positionTime: Int64 = 0

    public init() {}

    /// The position now, as clients of MPRIS extrapolate it.
    public func position(at now: Int64) -> Int64 {
        guard status == "Playing" else { return position }
        let elapsed = Double(max(0, now - positionTime)) * (rate.isFinite ? max(rate, 0) : 1)
        var value = position + Int64(min(elapsed, 1e15))
        if let length = track.length, length > 0 { value = min(value, length) }
        return max(0, value)
    }

    /// `Plugin.Stream.Player.Properties`' params, and GetProperties' result. The metadata is
    /// always there (snapserver 0.26 reads a missing one as "unchanged" and then dereferences
    /// it when it has none yet).
    public func properties(at now: Int64, cover: CoverArt? = nil) -> JSONValue {
        let statusText: JSONValue = switch status {
        case "Playing": "playing"
        case "Paused": "paused"
        default: "stopped"
        }
        let loopText: JSONValue = switch loopStatus {
        case "Track": "track"
        case "Playlist": "playlist"
        default: "none"
        }
        return [
            "playbackStatus": statusText,
            "loopStatus": loopText,
            "shuffle": .bool(shuffle),
            "volume": .integer(Int64(min(max((volume.isFinite ? volume : 0) * 100, 0), 100).rounded())),
            "rate": .number(rate.isFinite ? rate : 1),
            "position": .number(Double(position(at: now)) / 1e6),
            "canGoNext": .bool(isRunning && canGoNext),
            "canGoPrevious": .bool(isRunning && canGoPrevious),
            "canPlay": .bool(!isRunning || canPlay),
            "canPause": .bool(!isRunning || canPause),
            "canSeek": .bool(isRunning && canSeek),
            // Commands are always taken: with no player on the bus they start it (D-Bus
            // activation) or answer with the reason.
            "canControl": true,
            "metadata": track.metadata(cover: cover),
        ]
    }
}

/// The current track's MPRIS Metadata, as far as Snapcast shows it.
public struct TrackMetadata: Sendable, Equatable {
    /// mpris:trackid.
    public var trackID: String?
    public var title: String?
    public var artists: [String] = []
    public var album: String?
    public var albumArtists: [String] = []
    public var genres: [String] = []
    /// mpris:length, µs.
    public var length: Int64?
    public var url: String?
    /// mpris:artUrl.
    public var artURL: String?
    public var trackNumber: Int64?
    public var discNumber: Int64?

    public init() {}

    /// Snapcast's metadata object: the cover as data (snapserver serves it from its own HTTP
    /// server, so every client can show it) when the art is a local file, else its URL.
    public func metadata(cover: CoverArt?) -> JSONValue {
        var members: [(key: String, value: JSONValue)] = []
        if let trackID { members.append(("trackId", .string(trackID))) }
        if let title { members.append(("title", .string(title))) }
        if !artists.isEmpty { members.append(("artist", .array(artists.map(JSONValue.string)))) }
        if let album { members.append(("album", .string(album))) }
        if !albumArtists.isEmpty { members.append(("albumArtist", .array(albumArtists.map(JSONValue.string)))) }
        if !genres.isEmpty { members.append(("genre", .array(genres.map(JSONValue.string)))) }
        if let length, length > 0 { members.append(("duration", .number(Double(length) / 1e6))) }
        if let url { members.append(("url", .string(url))) }
        if let trackNumber { members.append(("trackNumber", .integer(trackNumber))) }
        if let discNumber { members.append(("discNumber", .integer(discNumber))) }
        if let cover {
            members.append(("artData", ["data": .string(cover.base64), "extension": .string(cover.fileExtension)]))
        } else if let artURL, artURL.hasPrefix("http://") || artURL.hasPrefix("https://") {
            members.append(("artUrl", .string(artURL)))
        }
        return .object(members)
    }
}

/// A cover image sent as data (`artData`).
public struct CoverArt: Sendable, Equatable {
    public var base64: String
    /// png, jpg, gif, webp.
    public var fileExtension: String

    /// Larger images are not sent (a line of the protocol stays well under a few MiB).
    public static let byteLimit = 1 << 20

    /// The image in `bytes`, if they are one of the kinds Snapcast clients show.
    public init?(bytes: [UInt8]) {
        guard !bytes.isEmpty, bytes.count <= Self.byteLimit else { return nil }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            fileExtension = "png"
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            fileExtension = "jpg"
        } else if bytes.starts(with: Array("GIF8".utf8)) {
            fileExtension = "gif"
        } else if bytes.count > 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            fileExtension = "webp"
        } else {
            return nil
        }
        base64 = Base64.encode(bytes)
    }
}

enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            out += [alphabet[Int(value >> 18)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)], alphabet[Int(value & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let value = UInt32(bytes[index]) << 16
            out += [alphabet[Int(value >> 18)], alphabet[Int(value >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            out += [alphabet[Int(value >> 18)], alphabet[Int(value >> 12 & 63)], alphabet[Int(value >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}

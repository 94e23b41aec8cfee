/// What a stream's connection is doing, as the input reports it.
public enum StreamStatus: Sendable, Equatable {
    /// Connecting (the first time, or again after the user's long pause).
    case connecting
    /// Connected and delivering audio; `station` is the server's name for it (icy-name).
    case connected(station: String?, live: Bool)
    /// A file over HTTP (not a live station) turned out to last `length`; `seekable` when its
    /// server can send it from any byte (HTTP ranges).
    case measured(length: Microseconds, seekable: Bool)
    /// The connection dropped or could not be made; trying again (attempt 1, 2, …) in `delay`.
    case reconnecting(attempt: Int, delay: Microseconds, reason: String)

    /// One line for `aubade status`, `monitor` and the log.
    public var summary: String {
        switch self {
        case .connecting: return "connecting"
        case .connected(let station, _): return station.map { "connected to \($0)" } ?? "connected"
        case .measured: return "connected"
        case .reconnecting(let attempt, let delay, let reason):
            let seconds = Double(delay) / 1_000_000
            return "reconnecting (attempt \(attempt), in \(seconds.formatted1) s): \(reason)"
        }
    }
}

/// The title a station announces for what it plays now (ICY `StreamTitle`), once it is heard.
public struct LiveTitle: Sendable, Equatable {
    /// The whole announcement, as sent (after conversion to UTF-8).
    public var text: String
    /// Split from "Artist - Title" when the station gives no artist of its own.
    public var artist: String?
    public var title: String

    public init(text: String, artist: String?, title: String) {
        self.text = text
        self.artist = artist
        self.title = title
    }

    /// Reads "Artist - Title" (the common form) into its parts; anything else is the title.
    public init(announcement: String) {
        text = announcement
        let separator = announcement.firstRange(of: " - ")
        if let separator {
            let artist = announcement[..<separator.lowerBound].trimmingSpaces
            let title = announcement[separator.upperBound...].trimmingSpaces
            if !artist.isEmpty, !title.isEmpty {
                self.artist = artist
                self.title = title
                return
            }
        }
        artist = nil
        title = announcement.trimmingSpaces
    }
}

/// What is known about a stream entry while it plays: shown in Metadata and `aubade status`.
public struct LiveFacts: Sendable, Equatable {
    public var status: StreamStatus
    public var station: String?
    public var title: LiveTitle?
    /// No end: a radio station. A finite file over HTTP is not live.
    public var isLive: Bool
    /// A file over HTTP whose server takes ranges: Seek and SetPosition work.
    public var isSeekable = false
    /// It answered with audio at least once since it became current.
    public var hasConnected = false

    public init(status: StreamStatus = .connecting, station: String? = nil, title: LiveTitle? = nil, isLive: Bool = true) {
        self.status = status
        self.station = station
        self.title = title
        self.isLive = isLive
    }
}

private extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}

private extension String {
    var trimmingSpaces: String { self[...].trimmingSpaces }
}

private extension Double {
    /// One decimal, without Foundation.
    var formatted1: String {
        let tenths = Int((self * 10).rounded())
        return "\(tenths / 10).\(abs(tenths % 10))"
    }
}

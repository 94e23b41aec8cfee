internal import DBusKit
internal import PlayerCore

/// Builds the MPRIS `Metadata` map (a{sv}) of the current entry: the "now playing" facts.
///
/// Types follow the MPRIS metadata page exactly — BlueZ's mpris-proxy (AVRCP to headsets and
/// car kits) rejects a player whose `mpris:length` is not `x` or `xesam:artist` not `as`.
enum Metadata {
    static func value(for entry: QueueEntry?) -> DBusValue {
        .vardict(fields(for: entry))
    }

    static func fields(for entry: QueueEntry?) -> [(String, DBusValue)] {
        guard let entry else { return [("mpris:trackid", .objectPath(TrackPath.noTrack))] }
        let track = entry.track
        guard case .file(let path) = track.location else { return streamFields(for: entry) }
        var fields: [(String, DBusValue)] = [
            ("mpris:trackid", .objectPath(TrackPath.path(for: entry.id))),
            ("xesam:title", .string(track.displayTitle)),
            ("xesam:url", .string(FileURI.uri(for: path))),
        ]
        if let length = track.length { fields.append(("mpris:length", .int64(length))) }
        if let art = track.artURL { fields.append(("mpris:artUrl", .string(art))) }
        if !track.artists.isEmpty { fields.append(("xesam:artist", .stringArray(track.artists))) }
        if let album = track.album, !album.isEmpty { fields.append(("xesam:album", .string(album))) }
        if !track.albumArtists.isEmpty { fields.append(("xesam:albumArtist", .stringArray(track.albumArtists))) }
        if !track.genres.isEmpty { fields.append(("xesam:genre", .stringArray(track.genres))) }
        // Both are lists in the spec (as): a work may have two composers, a file two comments.
        let composers = track.values(of: .composer)
        if !composers.isEmpty { fields.append(("xesam:composer", .stringArray(composers))) }
        let comments = track.values(of: .comment)
        if !comments.isEmpty { fields.append(("xesam:comment", .stringArray(comments))) }
        if let number = track.trackNumber, let value = Int32(exactly: number) {
            fields.append(("xesam:trackNumber", .int32(value)))
        }
        if let number = track.discNumber, let value = Int32(exactly: number) {
            fields.append(("xesam:discNumber", .int32(value)))
        }
        if let date = track.date, !date.isEmpty { fields.append(("xesam:contentCreated", .string(date))) }
        return fields
    }

    /// A station: the song on air as title and artist (split from "Artist - Title"), the
    /// whole announcement in xesam:comment, the station's name as the album; no length while
    /// live. The URL is published without credentials. The trackid stays the entry's.
    static func streamFields(for entry: QueueEntry) -> [(String, DBusValue)] {
        let track = entry.track
        let live = entry.live
        let station = live?.station
        let title = live?.title?.title ?? station ?? track.displayTitle
        var fields: [(String, DBusValue)] = [
            ("mpris:trackid", .objectPath(TrackPath.path(for: entry.id))),
            ("xesam:title", .string(title)),
            ("xesam:url", .string(track.streamURL?.redacted ?? "")),
        ]
        if let artist = live?.title?.artist { fields.append(("xesam:artist", .stringArray([artist]))) }
        if let text = live?.title?.text { fields.append(("xesam:comment", .stringArray([text]))) }
        if let station { fields.append(("xesam:album", .string(station))) }
        if live?.isLive == false, let length = track.length { fields.append(("mpris:length", .int64(length))) }
        return fields
    }
}

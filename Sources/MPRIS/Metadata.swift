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
        var fields: [(String, DBusValue)] = [
            ("mpris:trackid", .objectPath(TrackPath.path(for: entry.id))),
            ("xesam:title", .string(track.displayTitle)),
            ("xesam:url", .string(FileURI.uri(for: track.path))),
        ]
        if let length = track.length { fields.append(("mpris:length", .int64(length))) }
        if let art = track.artURL { fields.append(("mpris:artUrl", .string(art))) }
        if !track.artists.isEmpty { fields.append(("xesam:artist", .stringArray(track.artists))) }
        if let album = track.album, !album.isEmpty { fields.append(("xesam:album", .string(album))) }
        if !track.albumArtists.isEmpty { fields.append(("xesam:albumArtist", .stringArray(track.albumArtists))) }
        if !track.genres.isEmpty { fields.append(("xesam:genre", .stringArray(track.genres))) }
        if let number = track.trackNumber, let value = Int32(exactly: number) {
            fields.append(("xesam:trackNumber", .int32(value)))
        }
        if let number = track.discNumber, let value = Int32(exactly: number) {
            fields.append(("xesam:discNumber", .int32(value)))
        }
        if let date = track.date, !date.isEmpty { fields.append(("xesam:contentCreated", .string(date))) }
        return fields
    }
}

import PlayerCore

/// Where each entry of a playlist points, without reading any of it: for showing or editing a
/// playlist (MPD's `listplaylist`, `playlistadd`…), not for playing it (that is `QueueLoader`,
/// which also expands folders and nested playlists and reads tags).
public enum PlaylistLocations {
    /// The M3U/M3U8 `bytes` of a playlist in `directory`: each entry line as an absolute path
    /// or a station URL, in order; lines that name nothing playable are left out.
    public static func m3u(_ bytes: [UInt8], in directory: FilePath) -> Result<[MediaLocation], PlaylistText.NotText> {
        M3UPlaylist.entries(in: bytes, playlistDirectory: directory).map { $0.compactMap(location) }
    }

    /// One entry's raw value (a PLS `FileN=`) read as an M3U line is.
    public static func entry(_ value: [UInt8], in directory: FilePath) -> MediaLocation? {
        location(of: PlaylistEntry(value[...], in: directory))
    }

    private static func location(of entry: PlaylistEntry) -> MediaLocation? {
        switch entry {
        case .path(let path, _): return .file(path)
        case .stream(let url): return .stream(url)
        case .unusable: return nil
        }
    }
}

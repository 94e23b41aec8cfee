import Decoding
import PlayerCore

/// Turns what the user named — files, folders, playlists, `file://` URIs — into tracks to
/// queue, and a list of what could not be played and why.
///
/// Every file is read (tags and exact length) while loading; an unplayable file is skipped
/// and reported, never fatal.
public struct QueueLoader: Sendable {
    private let reader: @Sendable (FilePath) throws(DecodingError) -> Track
    /// How long a batched load reads before it hands over its first batch (tests shorten it).
    public var firstBatchDelay = Duration.seconds(1)

    /// `reader` reads one file into a `Track`; tests inject a fake.
    public init(reader: @escaping @Sendable (FilePath) throws(DecodingError) -> Track = TrackReader.read) {
        self.reader = reader
    }

    /// Expands `paths` in order (relative paths against the working directory):
    /// - a music file (MP3, FLAC, Ogg Vorbis, Opus: told by its content) is read;
    /// - a directory is searched recursively for `*.mp3`, `*.flac`, `*.ogg`, `*.oga`, `*.opus` (any case; hidden entries skipped,
    ///   symlink loops safe), each folder's files ordered by disc, track number, then file name
    ///   in natural order ("2 x" before "10 x"), followed by its subfolders in natural order;
    /// - an `.m3u`/`.m3u8` playlist contributes its entries (paths relative to the playlist's
    ///   folder, absolute paths or `file://` URIs; directories and playlists expand too, at
    ///   most 8 deep and 256 in all, a playlist never inside itself). Lines are bytes: a
    ///   Latin-1 line names a Latin-1 file name, or, failing that, the same name in UTF-8.
    ///   A playlist over 16 MiB, or with control bytes (binary data, see `PlaylistText`), is
    ///   not read; more than 3 bad lines in one are summed up in one problem ("N of M lines
    ///   skipped, first: …").
    ///
    /// Only regular files are opened: a FIFO or device node is a problem, never read. Kernel
    /// file systems (/proc, /sys…) are not walked.
    /// Each unplayable file is one problem naming it; a path that does not exist, or a
    /// directory or playlist without a single playable file, is a problem too.
    public func load(_ paths: [FilePath]) -> (tracks: [Track], problems: [LoadProblem]) {
        var tracks: [Track] = []
        let problems = load(paths) { tracks += $0 }
        return (tracks, problems)
    }

    /// `load`, handing the tracks over in order as they are read, a folder's tracks together
    /// (in album order): the first batch at the first folder boundary after `firstBatchDelay`
    /// (1 s: a big folder on a cold disk starts playing while the rest is read; a load quicker
    /// than that comes in one batch, so a client looking right after sees all of it), then a
    /// batch at most every 0.5 s, the rest at the end. Returns the problems.
    public func load(_ paths: [FilePath], batches: ([Track]) -> Void) -> [LoadProblem] {
        withoutActuallyEscaping(batches) { batches in
            let session = LoadSession(reader: reader, batches: batches)
            session.firstBatchDelay = firstBatchDelay
            expand(paths, in: session)
            session.finish()
            return session.problems
        }
    }

    private func expand(_ paths: [FilePath], in session: LoadSession) {
        for path in paths {
            if StreamURL.isStreamAddress(String(decoding: path.bytes.prefix(8), as: UTF8.self)) {
                switch PlaylistEntry.stream(path.bytes) {
                case .stream(let url): session.addStream(url)
                case .unusable(let text, let reason): session.refuse(text, reason)
                case .path: break
                }
                continue
            }
            session.expand(FileSystem.absolute(path))
        }
    }

    /// `load` of paths given as text (their UTF-8 bytes); a path with a NUL is a problem.
    public func load(_ paths: [String]) -> (tracks: [Track], problems: [LoadProblem]) {
        var filePaths: [FilePath] = []
        var refused: [LoadProblem] = []
        for path in paths {
            if let filePath = FilePath(path) {
                filePaths.append(filePath)
            } else {
                refused.append(LoadProblem(path: path, reason: "contains a NUL character"))
            }
        }
        let (tracks, problems) = load(filePaths)
        return (tracks, refused + problems)
    }

    /// The tracks of a playlist read elsewhere (PLS): `entries` are its raw values in order,
    /// each a path (relative to the playlist's folder or absolute) or a URI, resolved and
    /// summed up exactly as M3U lines are.
    public func load(playlistEntries entries: [[UInt8]], of playlist: FilePath) -> (tracks: [Track], problems: [LoadProblem]) {
        let session = LoadSession(reader: reader)
        let playlist = FileSystem.absolute(playlist)
        session.expand(entries: entries.map { PlaylistEntry($0[...], in: playlist.parent) }, of: playlist)
        return (session.tracks, session.problems)
    }

    /// For MPRIS `OpenUri`: the tracks a `file://` URI names (a file, directory or playlist),
    /// or the stream an `http(s)://` URI is.
    ///
    /// Throws for other schemes, malformed URIs, and when nothing playable is found (then
    /// the problem says why; for a folder or playlist, that it held nothing playable).
    public func load(uri: String) throws(LoadProblem) -> [Track] {
        var tracks: [Track] = []
        _ = try load(uri: uri) { tracks += $0 }
        return tracks
    }

    /// `load(uri:)`, handing the tracks over in batches as `load(_:batches:)` does. Throws
    /// (before any batch) for a bad URI; after the load, when nothing playable was found.
    /// Returns the problems of a load that found something (files skipped, say).
    public func load(uri: String, batches: ([Track]) -> Void) throws(LoadProblem) -> [LoadProblem] {
        guard let scheme = PlaylistEntry.scheme(of: uri.utf8) ?? (uri.lowercased().hasPrefix("file:") ? "file" : nil) else {
            throw LoadProblem(path: uri, reason: "not a URI")
        }
        if scheme == "http" || scheme == "https" {
            do {
                batches([Track(stream: try StreamURL(validating: uri))])
                return []
            } catch {
                throw LoadProblem(path: String(uri.prefix(200)), reason: error.description)
            }
        }
        guard scheme == "file" else {
            throw LoadProblem(path: uri, reason: "unsupported URI scheme \"\(scheme)\" (file://, http:// and https:// URIs can be played)")
        }
        guard let path = FileURI.path(fromFileURI: uri) else {
            throw LoadProblem(path: uri, reason: "malformed file URI")
        }
        var found = false
        let problems = load([path]) { batch in
            found = found || !batch.isEmpty
            batches(batch)
        }
        if !found {
            // The last problem is the summary for a folder or playlist, the only one for a file.
            throw problems.last ?? LoadProblem(path: path.displayString, reason: "nothing playable")
        }
        return problems
    }
}

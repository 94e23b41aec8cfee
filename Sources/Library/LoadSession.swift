import Decoding
import PlayerCore

/// One `QueueLoader.load` call in progress: the tracks and problems found so far, plus the
/// guards that keep symlink loops, self-including playlists and playlist bombs from running
/// forever or flooding the log.
package final class LoadSession {
    private let reader: @Sendable (FilePath) throws(DecodingError) -> Track
    private(set) var tracks: [Track] = []
    private(set) var problems: [LoadProblem] = []
    /// Playlists being expanded right now, by file (a playlist may list another, but not
    /// itself, under any name).
    private var openPlaylists: Set<FileSystem.FileID> = []
    /// Playlists read so far in this load, nested ones included.
    private var playlistsRead = 0

    /// Playlists bigger than this are not read: no real one comes near, and reading one
    /// whole must not be able to take the daemon's memory.
    static let playlistSizeLimit = 16 << 20
    /// The names looked at in a folder (any case). Which decoder plays a file is decided by
    /// its content, not by this: a `.mp3` that is really FLAC plays as FLAC.
    package static let musicExtensions: Set<String> = ["mp3", "flac", "ogg", "oga", "opus", "m4a", "m4b", "mp4", "aac"]
    /// How deep playlists may include playlists.
    static let playlistDepthLimit = 8
    /// How many playlists one load may read in all: a few playlists that each list the next
    /// one many times would otherwise multiply into millions of reads.
    static let playlistCountLimit = 256
    /// A playlist with more bad lines than this gets one summary problem instead of one each
    /// (a playlist of binary junk would otherwise log a line per junk line).
    static let problemsListedPerPlaylist = 3
    /// One load queues at most what the queue holds (AddTrack of `/` would otherwise build a
    /// track for every MP3 on the machine) …
    var trackLimit = PlayerState.queueCapacity
    /// … and looks at no more than this many directory entries, so its time is bounded too.
    var entryLimit = 2_000_000

    private var tracksFound = 0
    private var entriesSeen = 0
    /// A limit was reached: the rest of the load is skipped, reported once.
    private var stopped = false

    private func stop(_ path: FilePath, _ reason: String) {
        guard !stopped else { return }
        stopped = true
        report(path, reason)
    }

    init(reader: @escaping @Sendable (FilePath) throws(DecodingError) -> Track,
         batches: (([Track]) -> Void)? = nil) {
        self.reader = reader
        self.batches = batches
    }

    // MARK: Batches

    /// Given: the tracks found are handed over in order as they are read, at folder (or file)
    /// boundaries — the first batch once the load has taken `firstBatchDelay` (a slow, big
    /// folder's first album can play while the rest is read; a quick load comes whole, so a
    /// client that looks at once sees all of it), then at most every `batchInterval` — and
    /// the rest by `finish()`.
    private let batches: (([Track]) -> Void)?
    /// How many of `tracks` were handed over.
    private var delivered = 0
    private var lastDelivery = ContinuousClock.now
    var firstBatchDelay = LoadSession.defaultFirstBatchDelay
    static let defaultFirstBatchDelay = Duration.seconds(1)
    static let batchInterval = Duration.milliseconds(500)

    private func deliverIfDue() {
        guard let batches, tracks.count > delivered else { return }
        let waited = ContinuousClock.now - lastDelivery
        guard waited >= (delivered == 0 ? firstBatchDelay : Self.batchInterval) else { return }
        batches(Array(tracks[delivered...]))
        delivered = tracks.count
        lastDelivery = .now
    }

    /// Hands over what is left (with `batches`).
    func finish() {
        guard let batches, tracks.count > delivered else { return }
        batches(Array(tracks[delivered...]))
        delivered = tracks.count
    }

    /// A problem with something that is not a path (a URL, a line of text).
    func refuse(_ text: String, _ reason: String) {
        problems.append(LoadProblem(path: text, reason: reason))
    }

    private func report(_ path: FilePath, _ reason: String) {
        problems.append(LoadProblem(path: path.displayString, reason: reason))
    }

    /// Queues whatever the absolute `path` names: an MP3 file, a directory tree, a playlist.
    func expand(_ path: FilePath) {
        let kind: FileSystem.Kind
        do {
            kind = try FileSystem.kind(of: path)
        } catch {
            report(path, error.reason)
            return
        }
        switch kind {
        case .directory(let id):
            guard !FileSystem.isKernelFileSystem(path) else {
                report(path, "a kernel file system (like /proc or /sys), not music")
                return
            }
            var visited: Set<FileSystem.FileID> = [id]
            let before = tracks.count
            addDirectoryTracks(path, device: id.device, visited: &visited)
            if tracks.count == before { report(path, "no playable music files in directory") }
        case .regularFile(let id) where path.hasExtension(in: M3UPlaylist.extensions):
            expandPlaylist(path, id: id)
        case .regularFile:
            if let track = read(path) {
                tracks.append(track)
                deliverIfDue()
            }
        case .other:
            report(path, "not a regular file")
        }
    }

    /// A station is queued as it is: nothing is fetched until it plays.
    func addStream(_ url: StreamURL) {
        guard !stopped else { return }
        guard tracksFound < trackLimit else {
            if !stopped {
                stopped = true
                refuse(url.redacted, "not queued: one load queues at most \(trackLimit) tracks")
            }
            return
        }
        tracksFound += 1
        tracks.append(Track(stream: url))
        deliverIfDue()
    }

    private func read(_ path: FilePath) -> Track? {
        guard !stopped else { return nil }
        guard tracksFound < trackLimit else {
            stop(path, "not read: one load queues at most \(trackLimit) tracks")
            return nil
        }
        do {
            let track = try reader(path)
            tracksFound += 1
            return track
        } catch {
            report(path, error.reason)
            return nil
        }
    }

    // MARK: Directories

    /// Adds the music of a directory tree: each directory's own files in album order, then its
    /// subdirectories in natural name order. Hidden entries are skipped; `visited` (device and
    /// inode) stops symlink loops and a folder linked twice; kernel file systems mounted
    /// below (a walk of "/" reaches /proc and /sys) are left out. `device` is the directory's.
    private func addDirectoryTracks(_ directory: FilePath, device: UInt64, visited: inout Set<FileSystem.FileID>) {
        let names: [FilePath]
        do {
            names = try FileSystem.contents(ofDirectory: directory)
        } catch {
            report(directory, error.reason)
            return
        }
        var files: [FilePath] = []
        var subdirectories: [(path: FilePath, device: UInt64)] = []
        for name in names where !name.isHidden {
            entriesSeen += 1
            guard entriesSeen <= entryLimit, !stopped else {
                stop(directory, "not read further: one load looks at most \(entryLimit) directory entries")
                break
            }
            let path = directory.appending(name)
            let isMusic = name.hasExtension(in: Self.musicExtensions)
            switch try? FileSystem.kind(of: path) {
            case .directory(let id)?:
                // statfs only where a mount point is crossed: one call per mount, not per folder.
                if id.device != device && FileSystem.isKernelFileSystem(path) { continue }
                if visited.insert(id).inserted { subdirectories.append((path, id.device)) }
            case .regularFile? where isMusic:
                files.append(path)
            case .other? where isMusic:
                // A FIFO or device named like music: say why it is not played.
                report(path, "not a regular file")
            case nil where isMusic:
                report(path, "broken link")
            default:
                break
            }
        }
        // Reading in name order makes the problems come out in a stable, readable order.
        files.sort(by: Self.nameOrder)
        tracks += files.compactMap(read).sorted(by: Self.albumOrder)
        // A folder's tracks are in order once the folder is read: they can be queued now.
        deliverIfDue()
        subdirectories.sort { Self.nameOrder($0.path, $1.path) }
        for subdirectory in subdirectories {
            addDirectoryTracks(subdirectory.path, device: subdirectory.device, visited: &visited)
        }
    }

    /// Natural order of the last components as shown, then their bytes: two names that look
    /// alike (a UTF-8 "café" and a Latin-1 one) still sort the same way every time.
    static func nameOrder(_ a: FilePath, _ b: FilePath) -> Bool {
        let (x, y) = (a.lastComponent, b.lastComponent)
        let (textX, textY) = (x.displayString, y.displayString)
        if textX != textY { return NaturalOrder.areInIncreasingOrder(textX, textY) }
        return FilePath.bytewiseLess(x, y)
    }

    /// Disc number, then track number, then file name in natural order. An untagged disc
    /// counts as disc 1; an untagged track goes after the numbered ones.
    static func albumOrder(_ a: Track, _ b: Track) -> Bool {
        let discs = (a.discNumber ?? 1, b.discNumber ?? 1)
        if discs.0 != discs.1 { return discs.0 < discs.1 }
        let numbers = (a.trackNumber ?? Int.max, b.trackNumber ?? Int.max)
        if numbers.0 != numbers.1 { return numbers.0 < numbers.1 }
        // Only files of one folder are sorted, so both have paths.
        guard let pathA = a.path, let pathB = b.path else { return false }
        return nameOrder(pathA, pathB)
    }

    // MARK: Playlists

    private func expandPlaylist(_ path: FilePath, id: FileSystem.FileID) {
        guard openPlaylists.count < Self.playlistDepthLimit else {
            report(path, "not read: playlists nested more than \(Self.playlistDepthLimit) deep")
            return
        }
        guard playlistsRead < Self.playlistCountLimit else {
            report(path, "not read: over \(Self.playlistCountLimit) playlists in one load")
            return
        }
        guard openPlaylists.insert(id).inserted else {
            report(path, "playlist includes itself")
            return
        }
        defer { openPlaylists.remove(id) }
        playlistsRead += 1
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.contents(ofFile: path, limit: Self.playlistSizeLimit)
        } catch {
            report(path, error.reason)
            return
        }
        switch M3UPlaylist.entries(in: bytes, playlistDirectory: path.parent) {
        case .success(let entries): expand(entries: entries, of: path)
        case .failure(let notText): report(path, notText.reason)
        }
    }

    /// Expands a playlist's entries in order. More than `problemsListedPerPlaylist` problems
    /// become one, naming how many lines were skipped and the first problem; a playlist
    /// with nothing playable is a problem too.
    func expand(entries: [PlaylistEntry], of playlist: FilePath) {
        let tracksBefore = tracks.count
        let problemsBefore = problems.count
        var skippedLines = 0
        for entry in entries {
            let (tracksAtLine, problemsAtLine) = (tracks.count, problems.count)
            switch entry {
            case .path(let path, let alternative):
                expand(Self.existing(path, orElse: alternative))
            case .stream(let url):
                addStream(url)
            case .unusable(let text, let reason):
                problems.append(LoadProblem(path: text, reason: reason))
            }
            if tracks.count == tracksAtLine && problems.count > problemsAtLine { skippedLines += 1 }
        }
        let lineProblems = problems.count - problemsBefore
        if lineProblems > Self.problemsListedPerPlaylist {
            let first = problems[problemsBefore]
            problems.removeSubrange(problemsBefore...)
            let counts = lineProblems == skippedLines
                ? "\(skippedLines) of \(entries.count) lines skipped"
                : "\(skippedLines) of \(entries.count) lines skipped, \(lineProblems) problems"
            report(playlist, "\(counts), first: \(first.description)")
        }
        if tracks.count == tracksBefore { report(playlist, "no playable files in playlist") }
    }

    /// `path`, unless it does not exist and `alternative` does.
    private static func existing(_ path: FilePath, orElse alternative: FilePath?) -> FilePath {
        guard let alternative, (try? FileSystem.kind(of: path)) == nil,
              (try? FileSystem.kind(of: alternative)) != nil else { return path }
        return alternative
    }
}

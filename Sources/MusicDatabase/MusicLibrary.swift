import Decoding
import Dispatch
import Handoff
import Library
public import PlayerCore

/// The living database of the music folders: it loads its cache, checks it against the disk,
/// watches the folders (inotify) and carries out `update` and `rescan`, publishing each new
/// state as an immutable `LibrarySnapshot`.
///
/// Threads: all the work — reading the cache, walking folders, reading tags through `reader`,
/// inotify events, saving — runs on one serial queue of its own, `aubade.library`. Callers
/// never wait for it: `snapshot`, `runningJob` and `update` only take a lock for a moment.
/// `events` is called on that queue.
///
/// URIs are the paths below the music folder as text (see `EntryNames` for names that are
/// not UTF-8, have control characters, or look alike). With several music folders, each is
/// a top-level folder named after its last component.
public final class MusicLibrary: Sendable {
    let configuration: LibraryConfiguration
    let reader: @Sendable (FilePath) throws(DecodingError) -> Track
    let log: @Sendable (LogLevel, String) -> Void
    let queue = DispatchQueue(label: "aubade.library", qos: .utility)

    struct Shared {
        var snapshot: LibrarySnapshot
        var events: (@Sendable (LibraryEvent) -> Void)?
        var nextJob = 1
        /// Jobs asked for and not finished, the running one first.
        var jobs: [Int] = []
        var stopped = false
    }

    let shared: LockedState<Shared>
    /// What only the library's queue touches.
    let work: LibraryWork

    /// - Parameters:
    ///   - reader: reads a file's tags, length and format (the daemon passes the tag index's
    ///     reader, `TagIndex.reader(wrapping: TrackReader.read)`); called on the library's queue.
    ///   - log: one line per problem; a scan's unreadable files are one summary line.
    public init(configuration: LibraryConfiguration, reader: @escaping @Sendable (FilePath) throws(DecodingError) -> Track,
                log: @escaping @Sendable (LogLevel, String) -> Void) {
        var configuration = configuration
        configuration.folders = configuration.folders.map { $0.resolved(against: "/") }
        self.configuration = configuration
        self.reader = reader
        self.log = log
        shared = LockedState(Shared(snapshot: .empty(folders: configuration.folders)))
        work = LibraryWork(builder: LibraryBuilder(folders: configuration.folders))
    }

    /// The current snapshot: a lock held for a pointer copy.
    public var snapshot: LibrarySnapshot { shared.withLock { $0.snapshot } }

    /// The job being carried out (`status`: `updating_db`), nil when none is.
    public var runningJob: Int? { shared.withLock { $0.jobs.first } }

    /// At most this many `update`s wait or run at once (mpd's update queue holds 32): a client
    /// that sends thousands cannot keep the library scanning for hours, nor `stop` waiting.
    public static let maximumJobs = 32

    /// The jobs asked for and not finished: `update` is refused at `maximumJobs`.
    public var pendingJobs: Int { shared.withLock { $0.jobs.count } }

    /// Where events go; set it before `start()`.
    public var events: (@Sendable (LibraryEvent) -> Void)? {
        get { shared.withLock { $0.events } }
        set { shared.withLock { $0.events = newValue } }
    }

    /// Loads the cache, publishes it, then checks it against the disk and starts watching.
    /// Returns at once.
    public func start() {
        queue.async { [self] in
            loadCache()
            // Watching first: a folder is watched before the scan lists it.
            if configuration.watch { startWatching() }
            verify()
        }
    }

    /// `update [URI]` (`rescan: false`: only new and changed files are read) or `rescan [URI]`
    /// (every file read again). Returns the job's id (1, 2, …); jobs run one after the other.
    /// Nil when `uri` is malformed (`..`, an empty part), and when `maximumJobs` wait already
    /// (`pendingJobs` tells). A URI that names nothing gets a job all the same, which finds
    /// nothing (or that it is gone), as mpd 0.23 answers it.
    public func update(_ uri: String?, rescan: Bool) -> Int? {
        let target = uri.flatMap { $0.isEmpty || $0 == "/" ? nil : $0 }
        if let target {
            guard LibrarySnapshot.components(of: target) != nil else { return nil }
        }
        let job: Int? = shared.withLock { state in
            guard !state.stopped, state.jobs.count < Self.maximumJobs else { return nil }
            let job = state.nextJob
            state.nextJob = state.nextJob == Int(Int32.max) ? 1 : state.nextJob + 1
            state.jobs.append(job)
            return job
        }
        guard let job else { return nil }
        queue.async { [self] in runJob(job, uri: target, rescan: rescan) }
        return job
    }

    /// Stops watching and saves what changed; waits for the queue's work under way.
    /// Not from `events` (it waits for the library's queue, which calls them).
    public func stop() {
        dispatchPrecondition(condition: .notOnQueue(queue))
        shared.withLock { $0.stopped = true }
        queue.sync { [self] in
            work.watcher?.cancel()
            work.watcher = nil
            saveCache()
        }
    }

    func emit(_ event: LibraryEvent) {
        shared.withLock { $0.events }?(event)
    }
}

/// The state only the library's queue touches: the builder, the watcher, what waits.
final class LibraryWork: @unchecked Sendable {
    var builder: LibraryBuilder
    var watcher: FolderWatcher?
    /// Folders changed since the last rescan, waiting for the debounce.
    var pendingFolders = Set<FilePath>()
    var rescanScheduled = false
    var unsavedChanges = false
    var saveScheduled = false
    var watchLimitLogged = false
    /// Folders found unwatched (the watch limit) since the last log line was considered.
    var unwatched = Set<FilePath>()
    var firstUnwatched: FilePath?
    var songLimitLogged = false
    var lastUpdated: Int64 = 0
    /// For tests: a watch limit lower than the machine's (`FolderWatcher.simulatedLimit`).
    var simulatedWatchLimit: Int?

    init(builder: LibraryBuilder) {
        self.builder = builder
    }
}

extension MusicLibrary {
    /// Scans the folders once, on the caller's thread, and returns the snapshot: for tools,
    /// tests and benchmarks (no cache, no watching, no events).
    public static func build(configuration: LibraryConfiguration,
                             reader: @escaping @Sendable (FilePath) throws(DecodingError) -> Track,
                             log: @escaping @Sendable (LogLevel, String) -> Void = { _, _ in }) -> LibrarySnapshot {
        var configuration = configuration
        configuration.cacheFile = nil
        configuration.watch = false
        let library = MusicLibrary(configuration: configuration, reader: reader, log: log)
        library.queue.sync { library.verify() }
        return library.snapshot
    }
}

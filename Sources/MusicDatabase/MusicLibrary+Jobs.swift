import Dispatch
import Library
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension MusicLibrary {
    func runJob(_ job: Int, uri: String?, rescan: Bool) {
        // Stopping: the jobs still waiting are dropped, so `stop` waits for one job at most.
        guard !shared.withLock({ $0.stopped }) else {
            shared.withLock { state in state.jobs.removeAll { $0 == job } }
            return
        }
        emit(.updateStarted(job: job))
        var report = ScanReport()
        report.songsLeft = configuration.songLimit - work.builder.songCount
        let rules = scanRules(rescan: rescan)
        if let uri {
            // A URI below no music folder (with several, its first part names none), or one that
            // no longer maps (a folder removed meanwhile), has nothing to scan.
            if let parts = rawParts(ofURI: uri) { refresh(parts, recursive: true, rules: rules, report: &report) }
        } else {
            work.builder.refreshAll(rules: rules, report: &report)
        }
        finish(report, what: uri.map { "update of \($0)" } ?? (rescan ? "rescan" : "update"))
        shared.withLock { state in state.jobs.removeAll { $0 == job } }
        emit(.updateFinished(job: job))
    }

    /// Checks the cached library against the disk at start (no job: mpd's start does none).
    func verify() {
        var report = ScanReport()
        report.songsLeft = configuration.songLimit - work.builder.songCount
        work.builder.refreshAll(rules: scanRules(rescan: false), report: &report)
        finish(report, what: "scan of the music folders")
        if work.watcher != nil { updateWatches() }
    }

    /// How a scan reads, and watches each folder before listing it.
    func scanRules(rescan: Bool) -> ScanRules {
        var rules = ScanRules(reader: reader, rescan: rescan)
        if work.watcher != nil {
            rules.willList = { [self] path in watch(path) }
        }
        return rules
    }

    /// Publishes what changed and logs one summary line for the problems of one scan.
    func finish(_ report: ScanReport, what: String) {
        if report.failed > 0 {
            let more = report.failed > report.failures.count ? " …" : ""
            log(.warning, "library: \(report.failed) file\(report.failed == 1 ? "" : "s") not read in the \(what): "
                + report.failures.joined(separator: "; ") + more)
        }
        if let cut = report.limitReachedAt, !work.songLimitLogged {
            work.songLimitLogged = true
            log(.warning, "library: the song limit (\(configuration.songLimit)) is reached: \(cut.displayString) and the "
                + "songs found after it are not in the library")
        }
        if report.limitReachedAt == nil { work.songLimitLogged = false }
        if let cut = report.folderLimitReachedAt {
            log(.warning, "library: one scan lists at most \(ScanReport.folderLimit) folders, \(ScanReport.depthLimit) deep "
                + "(symbolic links that fan out?): \(cut.displayString) and the folders after it were not scanned")
        }
        if report.changed { publish() }
    }

    /// A new snapshot from the builder's tree, shown to everyone, saved a little later.
    func publish() {
        prune(work.builder.root, isRoot: true)
        work.builder.compactIfNeeded()
        let content = work.builder.flatten()
        work.lastUpdated = max(Self.now(), work.lastUpdated)
        let snapshot = LibrarySnapshot(content: content, updated: work.lastUpdated)
        shared.withLock { $0.snapshot = snapshot }
        emit(.changed(snapshot))
        work.unsavedChanges = true
        scheduleSave()
        if work.watcher != nil { updateWatches() }
    }

    /// Removes folders left with nothing in them (mpd's PruneEmpty); the music folders stay.
    private func prune(_ node: FolderNode, isRoot: Bool) {
        for child in node.children { prune(child, isRoot: false) }
        let isTopLevel = isRoot && configuration.folders.count > 1
        if !isTopLevel {
            let before = node.children.count
            node.children.removeAll { $0.isEmpty }
            if node.children.count != before { node.isOrdered = false }
        }
    }

    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec)
    }

    /// The names on disk of a URI's parts (below the root; with several folders the first is
    /// the folder's whole path), through the current snapshot: known folders and songs by
    /// their records, the rest as `filePath(forURI:)` maps them.
    func rawParts(ofURI uri: String) -> [[UInt8]]? {
        guard let path = snapshot.filePath(forURI: uri) else { return nil }
        for folder in configuration.folders {
            let base = folder.components, parts = path.components
            guard parts.count >= base.count, Array(parts.prefix(base.count)) == base else { continue }
            let rest = parts.dropFirst(base.count).map(\.bytes)
            return configuration.folders.count == 1 ? rest : [folder.bytes] + rest
        }
        return nil
    }

    /// Scans the folder at `parts` (recursively with `recursive`); a part not in the tree (a
    /// new folder, a file) makes its nearest known folder scanned, which finds it.
    func refresh(_ parts: [[UInt8]], recursive: Bool, rules: ScanRules, report: inout ScanReport) {
        guard let found = work.builder.node(atRawPath: parts) else { return }
        let alive = work.builder.refresh(found.node, at: found.path, ancestors: found.ancestors,
                                         recursive: recursive && found.rest.isEmpty, rules: rules, report: &report)
        if !alive && !found.node.isEmpty {
            found.node.songs = []
            found.node.playlists = []
            found.node.children = []
            report.changed = true
        }
    }
}

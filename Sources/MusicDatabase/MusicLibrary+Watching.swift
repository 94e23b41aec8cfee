import Dispatch
import Library
import PlayerCore

extension MusicLibrary {
    func startWatching() {
        guard work.watcher == nil else { return }
        work.watcher = FolderWatcher(queue: queue) { [weak self] change in self?.noticed(change) }
        work.watcher?.simulatedLimit = work.simulatedWatchLimit
        guard work.watcher != nil else {
            log(.warning, "library: inotify is not available: changes are seen only after `update`")
            return
        }
        updateWatches()
    }

    /// Watches one folder (before a scan lists it); past the watch limit, notes it unwatched.
    func watch(_ path: FilePath) {
        guard let watcher = work.watcher, !watcher.isWatching(path) else { return }
        switch work.unwatched.isEmpty ? watcher.watch(path) : .limitReached {
        case .watched: break
        case .limitReached:
            if work.unwatched.insert(path).inserted && work.firstUnwatched == nil { work.firstUnwatched = path }
        case .failed: break  // gone meanwhile: the next scan drops it
        }
    }

    /// Watches every folder of the library not yet watched, stops watching those gone, and
    /// logs the watch limit once, with what is not covered.
    func updateWatches() {
        guard let watcher = work.watcher else { return }
        var all = Set<FilePath>()
        func visit(_ node: FolderNode, _ path: FilePath) {
            all.insert(path)
            if !work.unwatched.contains(path) { watch(path) }
            for child in node.children {
                guard let name = FilePath(bytes: child.rawName) else { continue }
                visit(child, path.appending(name))
            }
        }
        let root = work.builder.root
        if configuration.folders.count == 1 {
            visit(root, configuration.folders[0])
        } else {
            for (folder, node) in zip(configuration.folders, root.children) { visit(node, folder) }
        }
        watcher.keepOnly(all)
        work.unwatched.formIntersection(all)
        if let first = work.firstUnwatched, !work.watchLimitLogged {
            work.watchLimitLogged = true
            log(.warning, "library: the inotify watch limit (fs.inotify.max_user_watches) is reached at \(watcher.count) "
                + "folders: changes in \(first.displayString) and \(work.unwatched.count - 1) other folders are seen only after `update`")
        }
    }

    func noticed(_ change: FolderWatcher.Change) {
        switch change {
        case .overflow:
            _ = update(nil, rescan: false)
        case .folder(let path):
            work.pendingFolders.insert(path)
            guard !work.rescanScheduled else { return }
            work.rescanScheduled = true
            let delay = Double(configuration.debounce.components.seconds) + Double(configuration.debounce.components.attoseconds) / 1e18
            queue.asyncAfter(deadline: .now() + max(0, min(delay, 3600))) { [self] in rescanPending() }
        }
    }

    /// One job for a burst of changes: each folder touched scanned again (new subfolders whole).
    func rescanPending() {
        work.rescanScheduled = false
        let folders = work.pendingFolders
        work.pendingFolders = []
        guard !folders.isEmpty, let job = nextInternalJob() else { return }
        emit(.updateStarted(job: job))
        var report = ScanReport()
        report.songsLeft = configuration.songLimit - work.builder.songCount
        let rules = scanRules(rescan: false)
        for folder in folders.sorted(by: FilePath.bytewiseLess) {
            guard let parts = rawParts(ofPath: folder) else { continue }
            refresh(parts, recursive: false, rules: rules, report: &report)
        }
        finish(report, what: "update after changes on disk")
        shared.withLock { state in state.jobs.removeAll { $0 == job } }
        emit(.updateFinished(job: job))
    }

    private func nextInternalJob() -> Int? {
        shared.withLock { state in
            guard !state.stopped else { return nil }
            let job = state.nextJob
            state.nextJob = state.nextJob == Int(Int32.max) ? 1 : state.nextJob + 1
            state.jobs.append(job)
            return job
        }
    }

    private func rawParts(ofPath path: FilePath) -> [[UInt8]]? {
        for folder in configuration.folders {
            let base = folder.components, parts = path.components
            guard parts.count >= base.count, Array(parts.prefix(base.count)) == base else { continue }
            let rest = parts.dropFirst(base.count).map(\.bytes)
            return configuration.folders.count == 1 ? rest : [folder.bytes] + rest
        }
        return nil
    }
}

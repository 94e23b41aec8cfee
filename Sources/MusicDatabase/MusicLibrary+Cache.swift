import Dispatch
import Library
import PlayerCore

extension MusicLibrary {
    /// Seconds between a change and the cache's save (a burst of changes is saved once).
    static let saveDelay = 5.0

    func loadCache() {
        guard let path = configuration.cacheFile else { return }
        let problem: String
        do throws(TagIndexFile.Failure) {
            guard let bytes = try TagIndexFile.contents(of: path, limit: LibraryCacheCoding.maximumBytes) else { return }
            do throws(LibraryCacheCoding.Corrupt) {
                let (content, updated) = try LibraryCacheCoding.decode(bytes)
                guard content.folders == configuration.folders else {
                    log(.info, "library: cache \(path) is of other music folders: the library is read again")
                    return
                }
                work.builder = LibraryBuilder(loading: content)
                work.lastUpdated = updated
                let snapshot = LibrarySnapshot(content: work.builder.flatten(), updated: updated)
                shared.withLock { $0.snapshot = snapshot }
                emit(.changed(snapshot))
                return
            } catch {
                problem = error.reason
            }
        } catch {
            problem = error.reason
        }
        log(.warning, "library: cache \(path) ignored (\(problem)): the library is read again")
        work.unsavedChanges = true
    }

    func scheduleSave() {
        guard configuration.cacheFile != nil, !work.saveScheduled else { return }
        work.saveScheduled = true
        queue.asyncAfter(deadline: .now() + Self.saveDelay) { [self] in
            work.saveScheduled = false
            saveCache()
        }
    }

    /// Writes the cache if anything changed since the last save (atomically: a temporary file,
    /// fsync, rename, as the tag index).
    func saveCache() {
        guard let path = configuration.cacheFile, work.unsavedChanges else { return }
        work.unsavedChanges = false
        let content = snapshot.content
        do throws(TagIndexFile.Failure) {
            try TagIndexFile.replace(path, with: LibraryCacheCoding.encode(content, updated: work.lastUpdated))
        } catch {
            log(.warning, "library: cache \(path) not saved: \(error.reason)")
        }
    }
}

import Dispatch
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches the library's folders with inotify, one watch per folder, and reports on the
/// library's queue which folder saw a change (a file created, written and closed, deleted,
/// moved in or out, its attributes changed) — the library rescans those, debounced.
///
/// The per-user watch limit (`fs.inotify.max_user_watches`, 8192 on many systems) may be
/// smaller than a library's folder count: `watch` then says so, and the caller logs it once.
final class FolderWatcher {
    enum Change {
        /// Something changed in this folder.
        case folder(FilePath)
        /// Events were lost (the kernel's queue overflowed): only a full scan is sure.
        case overflow
    }

    enum WatchOutcome { case watched, limitReached, failed(Int32) }

    private let fd: Int32
    private let source: DispatchSourceRead
    private var paths: [Int32: FilePath] = [:]
    private var watched: [FilePath: Int32] = [:]
    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB
                                     | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)

    /// Nil when inotify cannot be set up at all (the caller logs it).
    init?(queue: DispatchQueue, onChange: @escaping (Change) -> Void) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        self.fd = fd
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        source.setEventHandler { [unowned self] in self.readEvents(onChange) }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    func cancel() {
        source.cancel()
    }

    var count: Int { watched.count }

    func isWatching(_ path: FilePath) -> Bool { watched[path] != nil }

    /// For tests: the kernel's limit, simulated (the real one is the machine's, shared).
    var simulatedLimit: Int?

    func watch(_ path: FilePath) -> WatchOutcome {
        if watched[path] != nil { return .watched }
        if let simulatedLimit, watched.count >= simulatedLimit { return .limitReached }
        let wd = path.withCString { inotify_add_watch(fd, $0, Self.mask) }
        guard wd >= 0 else {
            let code = errno
            return code == ENOSPC ? .limitReached : .failed(code)
        }
        if let old = paths[wd] { watched[old] = nil }
        paths[wd] = path
        watched[path] = wd
        return .watched
    }

    /// Stops watching folders no longer in the library.
    func keepOnly(_ paths: Set<FilePath>) {
        for (path, wd) in watched where !paths.contains(path) {
            inotify_rm_watch(fd, wd)
            watched[path] = nil
            self.paths[wd] = nil
        }
    }

    private func readEvents(_ onChange: (Change) -> Void) {
        let capacity = 64 * (MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1)
        var changed = Set<FilePath>()
        var overflow = false
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment) { buffer in
            while true {
                let count = read(fd, buffer.baseAddress, capacity)
                guard count > 0 else { break }
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = buffer.baseAddress!.load(fromByteOffset: offset, as: inotify_event.self)
                    offset += MemoryLayout<inotify_event>.size + Int(event.len)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 { overflow = true; continue }
                    guard let path = paths[event.wd] else { continue }
                    if event.mask & UInt32(IN_IGNORED) != 0 {
                        paths[event.wd] = nil
                        if watched[path] == event.wd { watched[path] = nil }
                        continue
                    }
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        // The folder itself went: its parent's listing tells the rest.
                        changed.insert(path.parent)
                        continue
                    }
                    changed.insert(path)
                }
            }
        }
        if overflow { onChange(.overflow) }
        for path in changed { onChange(.folder(path)) }
    }

    deinit {
        source.cancel()
    }
}

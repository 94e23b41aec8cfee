import Dispatch
import Handoff
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Watches the playlists folder with inotify and calls `onChange` on `queue` when playlists
/// appear, disappear, are renamed or rewritten (for MPRIS `PlaylistCount`/`PlaylistChanged`).
///
/// Events are coalesced: a burst (an atomic save is a create, a close and a rename) gives one
/// call, `coalescingDelay` after its first event. Hidden files (our own temporary files) and
/// files that are neither playlists nor their icons are ignored.
///
/// If the folder does not exist when the watcher starts, nothing is watched (`isWatching` is
/// false) and nothing is created; start a new watcher once the folder exists (e.g. after the
/// first `PlaylistFolder.save`). If the folder itself is deleted or moved, `onChange` is
/// called once more and watching ends (`isWatching` turns false).
///
/// Thread confinement: the read source runs on `queue`; `cancel()` may be called from
/// anywhere and the descriptor is closed by the source's cancel handler, after the last read.
/// `@unchecked Sendable`: the only stored state is immutable, and a DispatchSource's
/// `cancel`/`isCancelled` are thread-safe (Dispatch does not mark its sources Sendable).
public final class PlaylistWatcher: @unchecked Sendable {
    public let folder: String
    private let source: (any DispatchSourceRead)?
    private let state: WatchState

    /// Whether changes are being reported: the folder existed at the start, has not gone
    /// away since, and `cancel()` has not been called.
    public var isWatching: Bool {
        guard let source, !source.isCancelled else { return false }
        return !state.flags.withLock { $0.folderGone }
    }

    /// - Throws: when inotify cannot be set up (e.g. the per-user watch limit is reached) or
    ///   the folder exists but cannot be watched; a missing folder is not an error.
    public init(folder: String, queue: DispatchQueue, coalescingDelay: Double = 0.05,
                onChange: @escaping @Sendable () -> Void) throws(PersistenceError) {
        self.folder = folder
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { throw .system("inotify_init1", folder) }
        let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_CLOSE_WRITE
                          | IN_DELETE_SELF | IN_MOVE_SELF | IN_ONLYDIR)
        guard inotify_add_watch(fd, folder, mask) >= 0 else {
            let code = errno
            close(fd)
            if code == ENOENT {
                source = nil
                state = WatchState()
                return
            }
            throw .system("inotify_add_watch", folder, code: code)
        }
        let source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: queue)
        let state = WatchState()
        source.setEventHandler {
            let (relevant, folderGone) = Self.drain(fd)
            let schedule = state.flags.withLock { flags in
                // The kernel drops the watch of a vanished folder; the source just stays quiet.
                if folderGone { flags.folderGone = true }
                guard relevant, !flags.isScheduled else { return false }
                flags.isScheduled = true
                return true
            }
            guard schedule else { return }
            queue.asyncAfter(deadline: .now() + coalescingDelay) {
                state.flags.withLock { $0.isScheduled = false }
                onChange()
            }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
        self.source = source
        self.state = state
    }

    /// Stops watching.
    public func cancel() {
        source?.cancel()
    }

    deinit {
        source?.cancel()
    }

    /// Reads every pending event. Returns whether any concerns a playlist (or the folder
    /// itself), and whether the folder went away.
    private static func drain(_ fd: Int32) -> (relevant: Bool, folderGone: Bool) {
        var relevant = false
        var folderGone = false
        // Room for many events; each is a header plus a NUL-padded name of at most NAME_MAX.
        let capacity = 64 * (MemoryLayout<inotify_event>.size + Int(NAME_MAX) + 1)
        withUnsafeTemporaryAllocation(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment) { buffer in
            while true {
                let count = read(fd, buffer.baseAddress, buffer.count)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }   // EAGAIN: drained
                var offset = 0
                while offset + MemoryLayout<inotify_event>.size <= count {
                    let event = buffer.baseAddress!.load(fromByteOffset: offset, as: inotify_event.self)
                    let nameStart = offset + MemoryLayout<inotify_event>.size
                    let nameBytes = UnsafeRawBufferPointer(rebasing: buffer[nameStart..<min(nameStart + Int(event.len), count)])
                    let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                    if event.mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF | IN_IGNORED) != 0 {
                        folderGone = true
                        relevant = true
                    } else if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        relevant = true      // events were lost: assume the worst
                    } else if !name.hasPrefix("."),
                              PlaylistFolder.playlistExtensions.contains(FileIO.fileExtension(of: name))
                                || PlaylistFolder.iconExtensions.contains(FileIO.fileExtension(of: name)) {
                        relevant = true
                    }
                    offset = nameStart + Int(event.len)
                }
            }
        }
        return (relevant, folderGone)
    }
}

/// What the event handler shares with the coalesced call and with `isWatching`.
private final class WatchState: Sendable {
    struct Flags {
        /// A coalesced `onChange` is already on its way.
        var isScheduled = false
        var folderGone = false
    }
    let flags = LockedState(Flags())
}

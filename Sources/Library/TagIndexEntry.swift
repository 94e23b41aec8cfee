import PlayerCore

/// One file in the tag index: its key (path, size, mtime, inode), the `Track` read from it,
/// and when it was last used (a counter, for dropping the least recently used).
struct TagIndexEntry: Equatable, Sendable {
    var key: TagIndexKey
    var track: Track
    var lastUsed: UInt64
}

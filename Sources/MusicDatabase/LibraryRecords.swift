import PlayerCore

/// One song as the database keeps it: 40 bytes of ids and numbers, its tags a range of the
/// library's packed tag array (`PackedTag`), every string an id in the `StringTable`.
struct SongRecord: Sendable, Equatable {
    /// The file name as it appears in the URI (`FilePath.displayString`, made unique).
    var name: UInt32
    /// The file name's bytes on disk (the same id as `name` for a UTF-8 name shown as is).
    var rawName: UInt32
    /// The folder it is in (an index into the snapshot's directories; set when one is built).
    var directory: UInt32 = 0
    var tagStart: UInt32
    var tagCount: UInt16
    /// 0: unknown; else an index + 1 into the library's formats.
    var format: UInt16
    /// `unknownDuration` when not known (mpd keeps milliseconds too).
    var durationMilliseconds: UInt32
    /// The file's modification time, nanoseconds since 1970.
    var modified: Int64
    var size: UInt64

    static let unknownDuration = UInt32.max

    var duration: Microseconds? {
        durationMilliseconds == Self.unknownDuration ? nil : Microseconds(durationMilliseconds) * 1000
    }

    var modifiedSeconds: Int64 { Self.seconds(modified) }

    /// Floor division: a time before 1970 stays before it.
    static func seconds(_ nanoseconds: Int64) -> Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds + 1) / 1_000_000_000 - 1
    }
}

/// A folder of the library, in the flat, depth-first array of a snapshot: its subfolders
/// follow it in order, each with its own subtree, up to `end`.
struct DirectoryRecord: Sendable, Equatable {
    var name: UInt32
    /// The name on disk; for a music folder shown as a top-level folder, its whole path.
    var rawName: UInt32
    /// `DirectoryRecord.none` for the root.
    var parent: UInt32
    /// The index after this folder's last descendant.
    var end: UInt32
    /// Its own songs, in mpd's order, then every song below it up to `songEnd`.
    var songStart: UInt32
    var songCount: UInt32
    var songEnd: UInt32
    var playlistStart: UInt32
    var playlistCount: UInt32
    var modified: Int64

    static let none = UInt32.max
}

/// A playlist file (m3u, m3u8, pls) in a folder: listed, never read by the database.
struct PlaylistRecord: Sendable, Equatable {
    var name: UInt32
    var rawName: UInt32
    var modified: Int64
    var size: UInt64
}

/// A tag of a song in one `UInt32`: the kind's index (6 bits) and the value's string id
/// (26 bits, 67 million distinct strings, far beyond the song limit's needs).
enum PackedTag {
    static let valueBits: UInt32 = 26
    static let valueMask: UInt32 = (1 << valueBits) - 1
    static let maximumValue = valueMask

    static func pack(_ kind: UInt8, _ value: UInt32) -> UInt32 { UInt32(kind) << valueBits | (value & valueMask) }
    static func kind(_ tag: UInt32) -> UInt8 { UInt8(tag >> valueBits) }
    static func value(_ tag: UInt32) -> UInt32 { tag & valueMask }

    /// TagKind ↔ its index in `TagKind.allCases` (the order tags are kept and listed in).
    static let kinds: [TagKind] = TagKind.allCases
    static let indexOfKind: [TagKind: UInt8] = Dictionary(uniqueKeysWithValues: kinds.enumerated().map { ($1, UInt8($0)) })

    static func index(_ kind: TagKind) -> UInt8 { indexOfKind[kind] ?? 0 }
}

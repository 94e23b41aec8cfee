/// Identifies one entry of the play queue for as long as it is queued.
///
/// The same file queued twice gets two ids. Ids are never reused within a daemon's life, so
/// MPRIS track ids (`/org/aubade/Track/<id>`) stay stable when other entries are edited.
public struct EntryID: Hashable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: UInt64

    public init(_ rawValue: UInt64) { self.rawValue = rawValue }

    public static func < (lhs: EntryID, rhs: EntryID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { "#\(rawValue)" }
}

public import MusicDatabase
public import PlayerCore

/// The query of `find`, `search`, `findadd`, `searchadd`: a filter, an order, a window.
public struct DatabaseQuery: Sendable, Equatable {
    public var filter: SongFilter
    /// `sort [-]TAG` or `sort Last-Modified` (the library's own order type).
    public var sort: SongOrder?
    /// Which of the sorted results (`window START:END`); nil: all.
    public var window: SongRange?

    public init(filter: SongFilter, sort: SongOrder? = nil, window: SongRange? = nil) {
        self.filter = filter
        self.sort = sort
        self.window = window
    }
}

/// `count [FILTER] [group TAG]`: totals, or one row per value of one tag.
public struct CountQuery: Sendable, Equatable {
    /// nil: every song (`count group artist`).
    public var filter: SongFilter?
    public var group: TagKind?

    public init(filter: SongFilter?, group: TagKind?) {
        self.filter = filter
        self.group = group
    }
}

/// `list TAG [FILTER] [group TAG]…`, or `list file [FILTER]`.
public struct ListQuery: Sendable, Equatable {
    public enum Target: Sendable, Hashable {
        case tag(TagKind)
        /// `list file`: every song's URI (`file:` lines).
        case file
    }

    public var target: Target
    public var filter: SongFilter?
    /// The grouping tags, outermost first: `list album group date group artist` lists each
    /// artist, under it each date, under that the albums (mpd takes the last `group` first).
    public var groups: [TagKind]

    public init(target: Target, filter: SongFilter? = nil, groups: [TagKind] = []) {
        self.target = target
        self.filter = filter
        self.groups = groups
    }
}

/// What `tagtypes` asks for.
public enum TagTypesRequest: Sendable, Hashable {
    /// No argument: list the tag types this client receives.
    case list
    case all
    case clear
    case enable(Set<TagKind>)
    case disable(Set<TagKind>)
}

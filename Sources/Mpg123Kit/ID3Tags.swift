/// The tags libmpg123 found in a file: ID3v2 text frames, an ID3v1 tag, and ID3v2 pictures.
///
/// Values are as the file has them (UTF-8 converted), not interpreted: "3/12" stays "3/12",
/// "(17)" stays "(17)". Interpreting them is the adapter's job.
public struct ID3Tags: Sendable, Equatable {
    /// ID3v2 text frames in file order (TIT2, TPE1, …). A frame repeated in the file stays
    /// two entries; `values(of:)` merges them.
    public var textFrames: [ID3TextFrame]
    /// The ID3v1 tag at the end of the file, if any.
    public var version1: ID3v1Tag?
    /// APIC pictures (only read with `Mpg123Flags.picture`).
    public var pictures: [ID3Picture]
    /// TXXX frames (user-defined text: ReplayGain, MusicBrainz ids…), in file order.
    public var userTexts: [ID3UserText]
    /// COMM frames, in file order.
    public var comments: [ID3Comment]
    /// UFID frames, in file order (only read with `Mpg123Flags.rawID3`).
    public var uniqueFileIDs: [ID3UniqueFileID]

    public init(textFrames: [ID3TextFrame] = [], version1: ID3v1Tag? = nil, pictures: [ID3Picture] = [],
                userTexts: [ID3UserText] = [], comments: [ID3Comment] = [], uniqueFileIDs: [ID3UniqueFileID] = []) {
        self.textFrames = textFrames
        self.version1 = version1
        self.pictures = pictures
        self.userTexts = userTexts
        self.comments = comments
        self.uniqueFileIDs = uniqueFileIDs
    }

    /// The first non-empty value of the TXXX frame whose description is `description`,
    /// compared case-insensitively ("replaygain_track_gain" = "REPLAYGAIN_TRACK_GAIN").
    public func userText(_ description: String) -> String? {
        let wanted = description.lowercased()
        return userTexts.lazy.filter { $0.description.lowercased() == wanted }
            .flatMap(\.values).first { !$0.isEmpty }
    }

    /// Every non-empty value of the TXXX frames whose description is `description` (compared
    /// as `userText(_:)` does), in file order.
    public func userTexts(_ description: String) -> [String] {
        let wanted = description.lowercased()
        return userTexts.lazy.filter { $0.description.lowercased() == wanted }
            .flatMap(\.values).filter { !$0.isEmpty }
    }

    /// All non-empty values of the ID3v2 frames with this four-letter `id`, in file order.
    public func values(of id: String) -> [String] {
        textFrames.lazy.filter { $0.id == id }.flatMap(\.values).filter { !$0.isEmpty }
    }

    /// The first non-empty value of the ID3v2 frame `id`.
    public func firstValue(of id: String) -> String? {
        values(of: id).first
    }
}

/// One ID3v2 text frame. ID3v2.4 allows several values in one frame, separated by NUL;
/// they arrive here already split.
public struct ID3TextFrame: Sendable, Equatable {
    /// The four-letter frame id, e.g. "TPE1".
    public var id: String
    public var values: [String]

    public init(id: String, values: [String]) {
        self.id = id
        self.values = values
    }
}

/// One TXXX frame: a user-chosen description and its value(s).
public struct ID3UserText: Sendable, Equatable {
    public var description: String
    public var values: [String]

    public init(description: String, values: [String]) {
        self.description = description
        self.values = values
    }
}

/// An ID3v1(.1) tag: fixed-width Latin-1 fields, trailing spaces and NULs removed.
public struct ID3v1Tag: Sendable, Equatable {
    public var title: String
    public var artist: String
    public var album: String
    public var year: String
    public var comment: String
    /// The ID3v1.1 track number (`nil` for a plain v1 tag or track 0).
    public var trackNumber: Int?
    /// The genre byte; `nil` when it is 255 ("none"). See `ID3Genre.name(forIndex:)`.
    public var genreIndex: Int?

    public init(title: String, artist: String, album: String, year: String, comment: String,
                trackNumber: Int?, genreIndex: Int?) {
        self.title = title
        self.artist = artist
        self.album = album
        self.year = year
        self.comment = comment
        self.trackNumber = trackNumber
        self.genreIndex = genreIndex
    }
}

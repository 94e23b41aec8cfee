/// One ID3v2 COMM frame: a comment in a language, told apart from the file's other comments
/// by its description (empty for "the" comment; iTunes keeps data under "iTunNORM", …).
public struct ID3Comment: Sendable, Equatable {
    /// The ISO 639-2 code as stored ("eng"); not checked, often "XXX" or blank.
    public var language: String
    public var description: String
    public var text: String

    public init(language: String, description: String, text: String) {
        self.language = language
        self.description = description
        self.text = text
    }
}

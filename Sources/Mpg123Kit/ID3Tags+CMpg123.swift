internal import CMpg123

// Conversion from libmpg123's tag structures. They point into the handle's storage, which
// the next library call may change, so everything is copied out at once.

extension ID3Tags {
    init(v1: mpg123_id3v1?, v2: mpg123_id3v2?) {
        self.init()
        if let v2 {
            textFrames = (0..<v2.texts).compactMap { index in
                guard let text = v2.text?[index] else { return nil }
                return ID3TextFrame(id: Self.frameID(text.id), values: Self.values(text.text))
            }
            userTexts = (0..<v2.extras).compactMap { index in
                guard let extra = v2.extra?[index] else { return nil }
                return ID3UserText(description: Self.values(extra.description).first ?? "", values: Self.values(extra.text))
            }
            comments = (0..<v2.comments).compactMap { index in
                // libmpg123 lists COMM frames here (USLT lyrics go with the text frames).
                guard let comment = v2.comment_list?[index], Self.frameID(comment.id) == "COMM" else { return nil }
                return ID3Comment(language: Self.language(comment.lang), description: Self.values(comment.description).first ?? "",
                                  text: Self.firstString(comment.text))
            }
            pictures = (0..<v2.pictures).compactMap { index in
                guard let picture = v2.picture?[index] else { return nil }
                let data = picture.data.map { Array(UnsafeBufferPointer(start: $0, count: picture.size)) } ?? []
                return ID3Picture(type: Int(UInt8(bitPattern: picture.type)),
                                  mimeType: Self.values(picture.mime_type).first ?? "",
                                  description: Self.values(picture.description).first ?? "",
                                  data: data)
            }
        }
        if var v1 {
            version1 = ID3v1Tag(&v1)
        }
    }

    /// The four characters of a frame id (not NUL-terminated in the struct).
    private static func frameID(_ id: (CChar, CChar, CChar, CChar)) -> String {
        let bytes = [id.0, id.1, id.2, id.3].map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The three letters of a COMM frame's language (not NUL-terminated), NULs dropped.
    private static func language(_ code: (CChar, CChar, CChar)) -> String {
        let bytes = [code.0, code.1, code.2].map { UInt8(bitPattern: $0) }.filter { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text up to its first NUL: a comment is one string (ID3v2's "full text"), and what
    /// follows a NUL in it is not part of it.
    static func firstString(_ string: mpg123_string) -> String {
        guard let p = string.p, string.fill > 1 else { return "" }
        let bytes = UnsafeRawBufferPointer(start: p, count: string.fill - 1)
        return String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }

    /// The NUL-separated UTF-8 strings of an `mpg123_string` (`fill` counts the final NUL).
    static func values(_ string: mpg123_string) -> [String] {
        guard let p = string.p, string.fill > 1 else { return [] }
        let bytes = UnsafeRawBufferPointer(start: p, count: string.fill - 1)
        var result = bytes.split(separator: 0, omittingEmptySubsequences: true)
            .map { String(decoding: $0, as: UTF8.self) }
        // Trailing NULs would give nothing; a lone empty string means "no value".
        result.removeAll { $0.isEmpty }
        return result
    }
}

extension ID3v1Tag {
    fileprivate init(_ tag: inout mpg123_id3v1) {
        let comment = withUnsafeBytes(of: &tag.comment) { Array($0) }
        // ID3v1.1: a zero byte at 28 followed by a non-zero byte at 29 is a track number.
        let isV11 = comment[28] == 0 && comment[29] != 0
        self.init(
            title: withUnsafeBytes(of: &tag.title) { Self.latin1($0) },
            artist: withUnsafeBytes(of: &tag.artist) { Self.latin1($0) },
            album: withUnsafeBytes(of: &tag.album) { Self.latin1($0) },
            year: withUnsafeBytes(of: &tag.year) { Self.latin1($0) },
            comment: comment.withUnsafeBytes { Self.latin1(UnsafeRawBufferPointer(rebasing: $0[..<(isV11 ? 28 : 30)])) },
            trackNumber: isV11 ? Int(comment[29]) : nil,
            genreIndex: tag.genre == 255 ? nil : Int(tag.genre))
    }

    /// A fixed-width field: up to the first NUL, trailing spaces dropped, Latin-1 decoded.
    private static func latin1(_ bytes: UnsafeRawBufferPointer) -> String {
        let field = bytes.prefix { $0 != 0 }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: field.map { Unicode.Scalar($0) })
        var text = String(scalars)
        while text.last == " " { text.removeLast() }
        return text
    }
}

import PlayerCore

/// What Aubade takes from the comment header of an Ogg Vorbis or Opus file, through the
/// wrapper's `forEachComment` (which shows each raw `KEY=value` without copying).
///
/// The header is from outside and may be megabytes: comments longer than a tag value can be
/// (`VorbisCommentMapping.valueLimit`) are skipped unread, only the first
/// `VorbisCommentMapping.commentLimit` are looked at, and of the pictures only the chosen one
/// is kept.
enum OggComments {
    /// A walk over the raw comments: calls its argument with each one until it returns false.
    typealias Walk = ((UnsafeRawBufferPointer) -> Bool) -> Void

    /// Bytes of a comment worth reading as a tag: a short key, "=", a value of at most
    /// `valueLimit` characters of up to 4 UTF-8 bytes each.
    static let textByteLimit = 64 + 1 + VorbisCommentMapping.valueLimit * 4

    /// The key of METADATA_BLOCK_PICTURE comments, upper-case, with its "=".
    private static let pictureKey = Array("METADATA_BLOCK_PICTURE=".utf8)

    /// The text comments as `(key, value)` pairs, capped as above (pictures left out).
    static func pairs(_ walk: Walk) -> [(key: String, value: String)] {
        var pairs: [(key: String, value: String)] = []
        var seen = 0
        walk { bytes in
            seen += 1
            guard seen <= VorbisCommentMapping.commentLimit else { return false }
            guard bytes.count <= textByteLimit, !hasPictureKey(bytes) else { return true }
            if let pair = VorbisCommentMapping.split(String(decoding: bytes, as: UTF8.self)) { pairs.append(pair) }
            return true
        }
        return pairs
    }

    /// The front cover among the METADATA_BLOCK_PICTURE comments, else the first picture;
    /// nil when there is none (or none parses).
    static func cover(_ walk: Walk) -> CoverArt? {
        var first: CoverArt?
        var front: CoverArt?
        var seen = 0
        // Base64 of the largest picture FLACPictureBlock accepts, plus its block header.
        let textLimit = (FLACPictureBlock.sizeLimit + 1 << 16) / 3 * 4 + pictureKey.count + 8
        walk { bytes in
            seen += 1
            guard seen <= VorbisCommentMapping.commentLimit else { return false }
            guard bytes.count <= textLimit, hasPictureKey(bytes) else { return true }
            let text = String(decoding: bytes[pictureKey.count...], as: UTF8.self)
            guard let block = Base64.decode(text), let picture = FLACPictureBlock.parse(block) else { return true }
            if picture.type == FLACPictureBlock.frontCoverType {
                front = picture.picture
                return false
            }
            if first == nil { first = picture.picture }
            return true
        }
        return front ?? first
    }

    private static func hasPictureKey(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard bytes.count >= pictureKey.count else { return false }
        for (index, expected) in pictureKey.enumerated() {
            var byte = bytes[index]
            if byte >= UInt8(ascii: "a"), byte <= UInt8(ascii: "z") { byte -= 32 }
            if byte != expected { return false }
        }
        return true
    }
}

import OpusKit
import PlayerCore
import VorbisKit

extension DecodingError {
    /// Reasons for a failure while opening an Ogg Vorbis file: the system's words for `open`,
    /// "not an Ogg Vorbis file: …" when vorbisfile refuses the bytes.
    init(path: FilePath, opening error: VorbisError) {
        if error.isNotARegularFile {
            self.init(path: path, reason: "not a regular file")
        } else if error.isSystemError {
            self.init(path: path, openErrno: error.code)
        } else if error.isNotVorbis {
            self.init(path: path, reason: "not an Ogg Vorbis file: \(error.message)")
        } else {
            self.init(path: path, reason: "not an Ogg Vorbis file (\(error.function): \(error.message))")
        }
    }

    /// A failure in the middle of decoding a Vorbis file.
    init(path: FilePath, decoding error: VorbisError) {
        self.init(path: path, reason: "decoding failed (\(error.function): \(error.message))")
    }

    /// Reasons for a failure while opening an Opus file: the system's words for `open`,
    /// "not an Opus file: …" when opusfile refuses the bytes.
    init(path: FilePath, opening error: OpusError) {
        if error.isNotARegularFile {
            self.init(path: path, reason: "not a regular file")
        } else if error.isSystemError {
            self.init(path: path, openErrno: error.code)
        } else if error.isNotOpus {
            self.init(path: path, reason: "not an Opus file: \(error.message)")
        } else {
            self.init(path: path, reason: "not an Opus file (\(error.function): \(error.message))")
        }
    }

    /// A failure in the middle of decoding an Opus file.
    init(path: FilePath, decoding error: OpusError) {
        self.init(path: path, reason: "decoding failed (\(error.function): \(error.message))")
    }
}

extension OggVorbisFile {
    /// Opens `path` with its errors in a user's words.
    public static func opened(path: FilePath) throws(DecodingError) -> OggVorbisFile {
        do {
            return try path.withCString { (cPath) throws(VorbisError) in try OggVorbisFile(path: cPath) }
        } catch {
            throw DecodingError(path: path, opening: error)
        }
    }
}

extension OggOpusFile {
    /// Opens `path` with its errors in a user's words.
    public static func opened(path: FilePath) throws(DecodingError) -> OggOpusFile {
        do {
            return try path.withCString { (cPath) throws(OpusError) in try OggOpusFile(path: cPath) }
        } catch {
            throw DecodingError(path: path, opening: error)
        }
    }
}

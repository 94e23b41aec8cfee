/// Files Aubade recognises by their content but does not play, named the way their owners know
/// them, so that "song.wma" is "a WMA file (Windows Media): Aubade does not play WMA" and not the
/// complaint of whichever library tried it last ("not an MP3 file (mpg123_getformat: …)").
enum UnsupportedFormat {
    /// What the file that starts with `bytes` (an ID3v2 tag already skipped) is and that Aubade
    /// does not play it; nil when it is none of these (it may still be MP3).
    static func reason(for bytes: [UInt8]) -> String? {
        name(of: bytes).map { "\($0.what): Aubade does not play \($0.short)\($0.planned ? " yet" : "")" }
    }

    private static func name(of bytes: [UInt8]) -> (what: String, short: String, planned: Bool)? {
        func at(_ offset: Int, _ text: String) -> Bool {
            bytes.count >= offset + text.utf8.count && Array(bytes[offset..<offset + text.utf8.count]) == Array(text.utf8)
        }
        // M4A/MP4 ("ftyp") and ADTS are played by the FFmpeg helper: AudioFileKind finds them first.
        if at(0, "ADIF") { return ("an AAC file (ADIF)", "AAC", true) }
        if bytes.starts(with: [0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]) { return ("a WMA file (Windows Media)", "WMA", false) }
        if at(0, "RIFF"), at(8, "WAVE") { return ("a WAV file", "WAV", false) }
        if at(0, "FORM"), at(8, "AIFF") || at(8, "AIFC") { return ("an AIFF file", "AIFF", false) }
        if bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) { return ("a Matroska or WebM file", "Matroska or WebM", false) }
        if at(0, "MAC ") { return ("a Monkey's Audio (APE) file", "APE", false) }
        if at(0, "wvpk") { return ("a WavPack file", "WavPack", false) }
        if at(0, "MPCK") || at(0, "MP+") { return ("a Musepack file", "Musepack", false) }
        if at(0, "DSD ") || at(0, "FRM8") { return ("a DSD audio file", "DSD", false) }
        if at(0, "MThd") { return ("a MIDI file", "MIDI", false) }
        if at(0, "#EXTM3U"), bytes.count > 8, String(decoding: bytes, as: UTF8.self).contains("#EXT-X-") {
            return ("an HLS playlist on disk", "HLS from files (HLS stations play from their http(s) URL)", false)
        }
        return nil
    }
}

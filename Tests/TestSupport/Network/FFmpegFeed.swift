import Foundation

/// Debian's ffmpeg as a station's playout: encodes (or copies) in real time (`-re`) and sends
/// to an icecast2 mount as a source client (`icecast://source:PASSWORD@…`). Run and stopped
/// by PID. Titles of an ICY (AAC) mount are set through the admin API by the test; an Ogg
/// mount's travel in the stream itself.
final class FFmpegFeed {
    let process: Subprocess
    /// CLOCK_MONOTONIC when ffmpeg was started (its media time 0 is sent about then).
    let startedAt: Double

    /// `input` are ffmpeg's input arguments (with -re), `output` the codec and muxer ones.
    init(server: IcecastServer, mount: String, input: [String], output: [String], contentType: String) throws {
        let target = "icecast://source:\(IcecastServer.sourcePassword)@127.0.0.1:\(server.port)\(IcecastServer.path(of: mount))"
        startedAt = IcecastSource.monotonicNow()
        process = try Subprocess("ffmpeg", ["-nostdin", "-hide_banner", "-loglevel", "error"] + input + output
                                 + ["-content_type", contentType, "-ice_name", "Aubade Test FM", target])
    }

    /// A 440 Hz tone for `first` seconds, then 660 Hz, as ADTS AAC at `bitRate`.
    static func aacToneStation(server: IcecastServer, mount: String, first: Double, bitRate: String = "64k") throws -> FFmpegFeed {
        try FFmpegFeed(server: server, mount: mount,
                       input: ["-re", "-f", "lavfi", "-i", "sine=frequency=440:sample_rate=44100:duration=\(first)",
                               "-re", "-f", "lavfi", "-i", "sine=frequency=660:sample_rate=44100"],
                       output: ["-filter_complex", "[0][1]concat=n=2:v=0:a=1,volume=0.5", "-ac", "2",
                                "-c:a", "aac", "-b:a", bitRate, "-f", "adts"],
                       contentType: "audio/aac")
    }

    /// A file's bytes sent unchanged at `bytesPerSecond`, as a source like ices sends a chained
    /// Ogg file (each new stream with its own comments): ffmpeg reads it as unsigned 8-bit mono
    /// "audio" at that rate, so `-re` paces the bytes, and writes the same bytes out. (Re-muxing
    /// would not do: ffmpeg's Ogg muxer joins chained Opus streams into one, their titles lost.)
    static func rawStation(server: IcecastServer, mount: String, file: URL, bytesPerSecond: Int,
                           contentType: String) throws -> FFmpegFeed {
        try FFmpegFeed(server: server, mount: mount,
                       input: ["-re", "-f", "u8", "-ar", "\(bytesPerSecond)", "-ac", "1", "-i", file.path],
                       output: ["-c", "copy", "-f", "u8"], contentType: contentType)
    }

    var isRunning: Bool { process.isRunning }
    var log: String { process.stderr.text }

    func stop() { _ = process.stop(grace: 2) }
}

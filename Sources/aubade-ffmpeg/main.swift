import FFmpegKit
import FFmpegWire
#if canImport(Glibc)
import Glibc
#endif

// aubade-ffmpeg: the FFmpeg helper of aubade (docs/ffmpeg-helper.md). The daemon starts it
// with one end of a socket as descriptor 3 and talks to it in frames (FFmpegWire); it reads
// M4A/MP4 and ADTS files, AAC and Ogg stations' bytes and HLS URLs, and answers with PCM, tags
// and covers. It has no bus connection, bounded memory, and dies with the daemon.
//
// Threads: one. Every request is answered in turn; FFmpeg's decoders run single-threaded.

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["--version"] {
    print("aubade-ffmpeg (FFmpeg \(FFmpegLibrary.versions))")
    exit(0)
}
guard arguments.isEmpty, HelperSetup.isSocket(HelperSetup.channelDescriptor) else {
    let message = "aubade-ffmpeg: started by aubade, it speaks on descriptor 3 (see docs/ffmpeg-helper.md); --version prints FFmpeg's\n"
    _ = message.withCString { write(2, $0, strlen($0)) }
    exit(64)
}
HelperSetup.prepare()
FFmpegLibrary.silenceLog()
let server = HelperServer(socket: WireSocket(descriptor: HelperSetup.channelDescriptor),
                          fault: HelperFault(environment: getenv("AUBADE_FFMPEG_TEST_FAULT").map { String(cString: $0) }))
exit(server.run())

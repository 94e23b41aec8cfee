// swift-tools-version:6.0
// Aubade: a background music service for Linux (MPRIS + PulseAudio + libmpg123).
// Depends on the toolchain and system libraries only.
import Foundation
import PackageDescription

// make test's sanitizer builds (scripts/run-tests) set AUBADE_SANITIZED_RUNNER_ONLY: their test
// runner runs only the tests whose code under test runs in it, while the integration and
// benchmark tests run from the plain runner against the sanitized daemon, so those two targets
// are left out of the sanitized builds (about a fifth of what they compile).
let sanitizedRunnerOnly = ProcessInfo.processInfo.environment["AUBADE_SANITIZED_RUNNER_ONLY"] != nil

let package = Package(
    name: "aubade",
    products: [
        .executable(name: "aubade", targets: ["aubade"]),
        // FFmpeg in a process of its own, started by aubade beside which it is installed.
        .executable(name: "aubade-ffmpeg", targets: ["aubade-ffmpeg"]),
    ],
    targets: [
        // C libraries, as the system ships them.
        .systemLibrary(name: "CDBus", pkgConfig: "dbus-1",
                       providers: [.apt(["libdbus-1-dev"])]),
        // No pkgConfig for libpulse: it adds -D_REENTRANT/-pthread, which SwiftPM warns about.
        .systemLibrary(name: "CPulse", providers: [.apt(["libpulse-dev"])]),
        .systemLibrary(name: "CMpg123", pkgConfig: "libmpg123",
                       providers: [.apt(["libmpg123-dev"])]),
        // libcurl's headers only: the library is dlopen'ed at the first stream (CCurl/shim.h), so a
        // daemon playing local files does not carry its TLS stack. No pkgConfig (it would link it).
        .systemLibrary(name: "CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // accept4 (a GNU extension Glibc's module leaves out), for the MPD front-end's listeners.
        .systemLibrary(name: "CSockets"),
        // libqrencode: `aubade web` shows the page's address as a QR code.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // The web front-end's HTTP server (docs/http.md).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd",
                       providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CFLAC", pkgConfig: "flac",
                       providers: [.apt(["libflac-dev"])]),
        .systemLibrary(name: "CVorbisFile", pkgConfig: "vorbisfile",
                       providers: [.apt(["libvorbis-dev"])]),
        .systemLibrary(name: "COpusFile", pkgConfig: "opusfile",
                       providers: [.apt(["libopusfile-dev"])]),
        // FFmpeg 5.1: linked into the aubade-ffmpeg helper ONLY, never into the daemon.
        // Headers in /usr/include/<triple> (the compiler's default path): no pkgConfig needed.
        .systemLibrary(name: "CFFmpeg",
                       providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswresample-dev", "libswscale-dev", "libavutil-dev"])]),

        // What threads hand each other: a pthread-mutex-guarded value (seen by ThreadSanitizer)
        // and a bounded byte ring. Pure Swift on libc.
        .target(name: "Handoff"),
        // Thin Swift wrappers: one file per C concept, no knowledge of the app.
        .target(name: "DBusKit", dependencies: ["CDBus", "Handoff"]),
        .target(name: "PulseKit", dependencies: ["CPulse"]),
        .target(name: "Mpg123Kit", dependencies: ["CMpg123"]),
        .target(name: "CurlKit", dependencies: ["CCurl", "Handoff"]),
        .target(name: "FLACKit", dependencies: ["CFLAC"]),
        // An HTTP/1.1 server with asynchronous answers and server-sent events; knows no Aubade.
        .target(name: "HTTPKit", dependencies: ["CMicroHTTPD", "Handoff"]),
        .target(name: "VorbisKit", dependencies: ["CVorbisFile"]),
        .target(name: "OpusKit", dependencies: ["COpusFile"]),
        .target(name: "FFmpegKit", dependencies: ["CFFmpeg"]),
        // The framed protocol between the daemon and aubade-ffmpeg (docs/ffmpeg-helper.md).
        // Pure Swift on libc: both ends use it, so the daemon links no FFmpeg.
        .target(name: "FFmpegWire"),
        // The daemon's side: finds, starts, talks to and stops aubade-ffmpeg.
        .target(name: "FFmpegClient", dependencies: ["FFmpegWire", "PlayerCore", "Handoff"]),

        // The pure heart: queue, playback state machine, audio-session policy. No C, no I/O.
        .target(name: "PlayerCore"),

        // Adapters: translate between the world and PlayerCore.
        .target(name: "Decoding", dependencies: ["Mpg123Kit", "FLACKit", "VorbisKit", "OpusKit", "PlayerCore", "FFmpegClient"]),
        .target(name: "Library", dependencies: ["Decoding", "PlayerCore", "Handoff"]),
        .target(name: "AudioOutput", dependencies: ["PulseKit", "PlayerCore", "Handoff"]),
        // Where bytes come from besides files: HTTP(S) streams, ICY titles, reconnecting.
        .target(name: "Inputs", dependencies: ["CurlKit", "Handoff", "Mpg123Kit", "PlayerCore", "AudioOutput", "FFmpegClient"]),
        // The seam between the one player and its front-ends (MPRIS, MPD, …): commands in as
        // PlayerCore events, changes out as turns (snapshots before and after). Pure Swift.
        .target(name: "FrontEnd", dependencies: ["PlayerCore"]),
        .target(name: "MPRIS", dependencies: ["DBusKit", "PlayerCore", "FrontEnd", "Handoff"]),
        // The music folders as a database: folders, songs and their tags, kept current (inotify),
        // queried (find, search, list, count) from any thread through immutable snapshots.
        .target(name: "MusicDatabase", dependencies: ["PlayerCore", "Library", "Decoding", "Handoff"]),
        // The MPD protocol, pure and table-tested: requests, the command table, filters,
        // responses. No sockets, no player (MPD's src/command and src/client are the model).
        .target(name: "MPDProtocol", dependencies: ["PlayerCore", "MusicDatabase"]),
        // The MPD front-end: the listeners (a Unix socket, TCP), its clients, and each command
        // carried out on the player (through FrontEnd) and the library.
        .target(name: "MPDServer", dependencies: ["MPDProtocol", "MusicDatabase", "FrontEnd", "PlayerCore", "Handoff",
                                                  "Library", "Persistence", "Decoding", "CSockets"]),
        .target(name: "Persistence", dependencies: ["PlayerCore", "Library", "Decoding", "Handoff"]),
        // aubade.conf and the flags of `aubade serve` → Settings. Pure parsing, libc for the file.
        .target(name: "Configuration", dependencies: ["PlayerCore", "MPDProtocol"]),
        // Snapcast's stream-plugin protocol (JSON-RPC lines) for `aubade snapcast-control`:
        // bounded JSON, the requests, the player's properties. Pure Swift.
        .target(name: "SnapcastControl", dependencies: ["JSON"]),
        // The page's rooms with output = snapcast: a client of snapserver's JSON-RPC control port
        // (each snapclient's volume and mute), reconnecting, bounded for a hostile server.
        .target(name: "SnapcastRooms", dependencies: ["JSON", "Handoff", "SnapcastControl"]),
        // JSON text, bounded for hostile input (depth, numbers): Snapcast's JSON-RPC lines and
        // the web front-end's API. Pure Swift.
        .target(name: "JSON"),

        // The page for a phone or a browser (docs/web.md): the API, the checks, the pushed state.
        // Knows no HTTP library: `WebRequest` in, `WebResponse` out (the daemon adapts HTTPKit).
        .target(name: "WebFrontEnd", dependencies: ["FrontEnd", "PlayerCore", "MusicDatabase", "JSON", "Handoff"]),

        .executableTarget(name: "aubade",
                          dependencies: ["PlayerCore", "Decoding", "Library", "AudioOutput", "MPRIS", "DBusKit", "Persistence",
                                         "Configuration", "Inputs", "SnapcastControl", "SnapcastRooms", "JSON", "FrontEnd", "MusicDatabase",
                                         "MPDServer", "WebFrontEnd", "CQRencode", "HTTPKit", "FFmpegClient"]),

        // What every test target shares, one target, no copies (Tests/TestSupport/README.md):
        // private buses and sound servers, the daemon under test, the one bus client, processes
        // stopped by PID, test music (sox, lame, flac, oggenc, ffmpeg), the test servers (HTTP,
        // icecast2, snapserver) and their Python scripts (Scripts/, resources).
        // The tests' arithmetic on recorded sound (tones, their gaps, clicks and changes of pitch,
        // two rooms' lag), built optimised in every build: it walks millions of samples a test,
        // and unoptimised, one Snapcast test's cross-correlation took seconds of CPU (-O: 15
        // times less). Pure Swift on Foundation, no XCTest.
        .target(name: "SoundAnalysis", path: "Tests/SoundAnalysis", swiftSettings: [.unsafeFlags(["-O"])]),
        .target(name: "TestSupport", dependencies: ["DBusKit", "SoundAnalysis"], path: "Tests/TestSupport",
                exclude: ["README.md"], resources: [.copy("Scripts")]),

        .executableTarget(name: "aubade-ffmpeg", dependencies: ["FFmpegKit", "FFmpegWire"]),

        .testTarget(name: "PlayerCoreTests", dependencies: ["PlayerCore"]),
        // No test target depends on aubade-ffmpeg: a dependency on an executable target links its
        // code into the one test bundle, FFmpeg's 130 shared libraries with it, which every test
        // process then loaded (about 40 ms of CPU each, some 1,450 processes a make test). The
        // tests run the helper as aubade does, the binary beside them, which every build of the
        // tests builds (swift build --build-tests and swift test build all targets).
        .testTarget(name: "FFmpegWireTests", dependencies: ["FFmpegWire", "FFmpegClient", "Handoff", "TestSupport", "SoundAnalysis"]),
        .testTarget(name: "ConfigurationTests", dependencies: ["Configuration", "MPDProtocol"]),
        .testTarget(name: "SnapcastControlTests", dependencies: ["SnapcastControl", "JSON"]),
        .testTarget(name: "SnapcastRoomsTests", dependencies: ["SnapcastRooms", "JSON", "TestSupport"]),
        .testTarget(name: "DBusKitTests", dependencies: ["DBusKit", "TestSupport"]),
        .testTarget(name: "InputsTests", dependencies: ["Inputs", "PlayerCore", "AudioOutput"]),
        // Real local HTTP(S) servers (python3, openssl) started and stopped by the tests.
        .testTarget(name: "CurlKitTests", dependencies: ["TestSupport", "CurlKit"]),
        // Real sockets against a server on 127.0.0.1 (port 0), from the test process itself.
        .testTarget(name: "HTTPKitTests", dependencies: ["HTTPKit", "Handoff"]),
        .testTarget(name: "DecodingTests", dependencies: ["Decoding", "Mpg123Kit", "VorbisKit", "OpusKit", "TestSupport"]),
        .testTarget(name: "LibraryTests", dependencies: ["Library", "TestSupport", "Handoff"]),
        .testTarget(name: "AudioOutputTests", dependencies: ["TestSupport", "AudioOutput", "PulseKit", "Handoff"]),
        .testTarget(name: "PersistenceTests", dependencies: ["TestSupport", "Persistence", "Handoff"]),
        .testTarget(name: "MPRISTests", dependencies: ["MPRIS", "DBusKit", "PlayerCore", "FrontEnd", "TestSupport"]),
        .testTarget(name: "WebFrontEndTests", dependencies: ["WebFrontEnd", "FrontEnd", "PlayerCore", "MusicDatabase", "Decoding",
                                                            "TestSupport"]),
        .testTarget(name: "MusicDatabaseTests", dependencies: ["MusicDatabase", "PlayerCore", "Library", "TestSupport"]),
        .testTarget(name: "MPDProtocolTests", dependencies: ["MPDProtocol", "MusicDatabase", "PlayerCore"]),
        // The MPD server's own parts in the test process: the player as MPD clients see it, the
        // stored playlists.
        .testTarget(name: "MPDServerTests", dependencies: ["MPDServer", "MPDProtocol", "FrontEnd", "PlayerCore", "Library",
                                                         "TestSupport"]),
        // The daemon's own code in the test process (@testable import aubade): its guard's timers
        // in virtual time.
        .testTarget(name: "DaemonTests", dependencies: ["aubade", "Handoff", "PlayerCore", "TestSupport"]),
    ] + (sanitizedRunnerOnly ? [] : [
        .testTarget(name: "IntegrationTests", dependencies: ["aubade", "DBusKit", "TestSupport", "SoundAnalysis"]),
        .testTarget(name: "BenchmarkTests", dependencies: ["aubade", "PulseKit", "TestSupport", "SoundAnalysis"]),
    ])
)

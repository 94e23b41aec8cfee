import Foundation
import XCTest

/// The private D-Bus session bus and sound server the integration tests run in.
///
/// Hermetic: a test process that is not already inside one (`scripts/audio-session`, which
/// exports AUBADE_AUDIO_SESSION) starts a session of its own the first time a test asks — a
/// private dbus-daemon and PulseAudio (or PipeWire with AUBADE_SOUND_SERVER=pipewire), with their
/// own XDG folders — so `swift test --parallel`, which runs each test in a process of its own,
/// runs them side by side: every process has its own bus (the daemon's fixed bus name is no
/// longer shared) and its own sinks. The session is `scripts/audio-session --print-env`
/// running `cat` on a pipe this process holds: when the process ends, however it ends, the pipe
/// closes and the session stops its servers by PID.
enum AudioSession {
    static let hint = "run via `make test` or `swift test` (the tests start their own session)"

    /// Makes sure this process has its session; the first call starts it (about 0.4 s).
    static func require() throws {
        try started.get()
    }

    private static let started: Result<Void, any Error> = Result { try start() }
    /// The session's process and the write end of its stdin, kept for the life of this process.
    nonisolated(unsafe) private static var keepAlive: (Subprocess, FileHandle)?

    private static func start() throws {
        let environment = ProcessInfo.processInfo.environment
        if let outer = environment["AUBADE_AUDIO_SESSION"], !outer.isEmpty { return }
        let server = environment["AUBADE_SOUND_SERVER"].flatMap { $0.isEmpty ? nil : $0 } ?? "pulseaudio"
        let script = Repository.file("scripts/audio-session").path
        let stdin = Pipe()
        // Not inherited by the children this process starts later (daemons, tools): the
        // session must end with this process, not with its last child.
        _ = fcntl(stdin.fileHandleForWriting.fileDescriptor, F_SETFD, FD_CLOEXEC)
        let session = try Subprocess(script, ["--server", server, "--print-env", "--", "cat"], stdin: stdin)
        guard session.stdout.waitForLine(containing: "AUBADE_SESSION_READY", timeout: 30) != nil else {
            session.stop(grace: 2)
            throw SessionMissing(message: "scripts/audio-session --server \(server) did not start: \(session.stderr.text)")
        }
        for line in session.stdout.lines {
            guard let equals = line.firstIndex(of: "="), line != "AUBADE_SESSION_READY" else { continue }
            setenv(String(line[..<equals]), String(line[line.index(after: equals)...]), 1)
        }
        keepAlive = (session, stdin.fileHandleForWriting)
        // At the end of the process, the session ends first and is waited for, so nothing of
        // it (its folder in TMPDIR) outlives the test process. A crash ends it all the same,
        // through the pipe, only not waited for.
        atexit {
            guard let (session, stdin) = AudioSession.keepAlive else { return }
            try? stdin.close()
            if session.waitForExit(timeout: 10) == nil { session.stop(grace: 3) }
        }
    }

    struct SessionMissing: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}

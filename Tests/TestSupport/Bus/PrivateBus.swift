import Foundation

/// A message bus of one test's own: a private `dbus-daemon` (session configuration, socket in
/// the test's TMPDIR), stopped by its PID — never the user's bus, never one another test shares.
/// For tests that need a bus but no sound server (DBusKit, the in-process MPRIS tests), and
/// for stand-ins of the system bus (logind, bluetoothd).
///
/// Spawned and reaped here (posix_spawn, waitpid), not through Foundation's Process, whose
/// exit monitoring was seen to miss the daemon's end when stopped from a test's deinit.
public final class PrivateBus: @unchecked Sendable {
    public let address: String
    public let pid: pid_t
    private let folder: URL
    private var reaped = false

    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("aubade-bus-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw PrivateBusError(message: "pipe: errno \(errno)") }
        // Neither end may leak into other children spawned meanwhile (their copy would keep
        // the pipe open); dup2 in the child clears the flag on its stdout.
        for end in pipeEnds { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments = ["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1",
                         "--address=unix:path=\(folder.path)/bus"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // The test runner's threads block signals (Dispatch's signal sources do); a child would
        // inherit the mask and never see our SIGTERM. It starts with none blocked, and defaults.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), defaults = sigset_t()
        sigemptyset(&none)
        sigemptyset(&defaults)
        for signal in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var child: pid_t = 0
        let spawned = posix_spawn(&child, arguments[0], &actions, &attributes, &argv, environ)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw PrivateBusError(message: "posix_spawn dbus-daemon: \(String(cString: strerror(spawned)))")
        }
        pid = child
        // The daemon prints its address once it listens.
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while read(pipeEnds[0], &byte, 1) == 1, byte != UInt8(ascii: "\n") { line.append(byte) }
        close(pipeEnds[0])
        address = String(decoding: line, as: UTF8.self)
        guard !address.isEmpty else {
            stop()
            throw PrivateBusError(message: "dbus-daemon printed no address")
        }
    }

    deinit { stop() }

    /// Stops the daemon (SIGTERM by PID, never by name; SIGKILL after 5 s), reaps it, and removes
    /// its socket's folder.
    public func stop() {
        if !reaped {
            kill(pid, SIGTERM)
            let deadline = Date(timeIntervalSinceNow: 5)
            var status: Int32 = 0
            while waitpid(pid, &status, WNOHANG) == 0 {
                if Date() >= deadline {
                    kill(pid, SIGKILL)
                    waitpid(pid, &status, 0)
                    break
                }
                usleep(2_000)
            }
            reaped = true
        }
        try? FileManager.default.removeItem(at: folder)
    }
}

public struct PrivateBusError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

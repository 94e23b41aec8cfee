import Foundation
import XCTest

/// Base of the tests that speak MPD to a daemon: starts `aubade serve` with a music folder (the
/// library), waits until its Unix socket answers and its library holds the songs expected, and
/// checks what every hostile test must show afterwards — the daemon still there, its name on
/// the bus, another client served promptly, its descriptors back where they were.
class MPDDaemonTestCase: AubadeTestCase {
    /// A daemon serving MPD: where to reach it.
    struct Served {
        let daemon: Daemon
        /// `$XDG_RUNTIME_DIR/aubade/mpd.socket` (the session's runtime folder).
        let socket: String
        /// The TCP port, when the test asked for TCP.
        let port: Int?

        var pid: Int32 { daemon.pid }

        /// A new client on the Unix socket (a "local" client: absolute paths allowed).
        func connect(receiveBuffer: Int? = nil, timeout: TimeInterval = Sanitizer.scaled(5)) throws -> MPDTestConnection {
            try MPDTestConnection.unix(socket, receiveBuffer: receiveBuffer, timeout: timeout)
        }

        /// A new client over TCP (not local: only the library).
        func connectTCP(receiveBuffer: Int? = nil, timeout: TimeInterval = Sanitizer.scaled(5)) throws -> MPDTestConnection {
            guard let port else { throw DaemonError("this daemon serves no TCP") }
            return try MPDTestConnection.tcp(port: port, receiveBuffer: receiveBuffer, timeout: timeout)
        }

        func openDescriptors() throws -> Int { try ProcessFacts.openDescriptors(of: daemon.pid) }
        func residentKilobytes() throws -> Int { try ProcessFacts.residentKilobytes(of: daemon.pid) }
    }

    static var socketPath: String {
        (ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"] ?? "/nonexistent") + "/aubade/mpd.socket"
    }

    /// Starts the daemon on `music` (a folder: the library; also what it queues at start) and
    /// waits until a client on the Unix socket gets an answer and `stats` counts `songs`.
    /// `tcp`: also served on 127.0.0.1 at a free port.
    func startMPD(music: URL?, songs: Int? = nil, tcp: Bool = false, arguments extra: [String] = [],
                  home: URL? = nil, keepsDefaultTCP: Bool = false, timeout: TimeInterval = 20) throws -> Served {
        var arguments: [String] = []
        var port: Int?
        if tcp || keepsDefaultTCP {
            port = try Self.freeTCPPort()
            arguments += (keepsDefaultTCP ? [] : ["--mpd-address", "127.0.0.1"]) + ["--mpd-port", "\(port!)"]
        }
        if let music { arguments += ["--music-folder", music.path] }
        arguments += extra
        let daemon = try startDaemon(arguments, home: home, keepsDefaultTCP: keepsDefaultTCP)
        let served = Served(daemon: daemon, socket: Self.socketPath, port: port)
        let wait = Sanitizer.scaled(timeout)
        try eventually("the MPD socket \(served.socket) to answer", timeout: wait) {
            let client = try served.connect()
            return try client.command("ping").isOK
        }
        if let songs {
            var seen = "?"
            try eventually("the library to hold \(songs) songs (stats says \(seen))", timeout: wait) {
                seen = try served.connect().command("stats").value("songs") ?? "none"
                return seen == "\(songs)"
            }
            // Then it watches the folders: its inotify descriptor comes after the scan, and a
            // test's count of descriptors must not begin before it (none if the system has no
            // watch to spare: then the wait ends without it).
            _ = eventually(timeout: Sanitizer.scaled(3)) {
                ProcessFacts.descriptorTargets(of: daemon.pid).contains { $0.hasSuffix("inotify") }
            }
        }
        return served
    }

    /// A TCP port nobody listens on now (the kernel's pick, released at once).
    static func freeTCPPort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw MPDTestError.system("socket", errno) }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(descriptor, pointer, length) == 0 && getsockname(descriptor, pointer, &length) == 0
            }
        }
        guard bound else { throw MPDTestError.system("bind", errno) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    // MARK: What every hostile test checks

    /// The daemon is still running and on the bus, and a new client gets `ping` and `status`
    /// answered within `within` seconds (judged only without a sanitizer; there, within 4× as
    /// long — its code paths are what a sanitizer phase runs it for).
    func assertStillServes(_ served: Served, within seconds: TimeInterval = 0.5, _ context: String = "",
                           file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(served.daemon.isRunning, "the daemon ended \(context)", file: file, line: line)
        XCTAssertEqual(try Bus.nameHasOwner(Daemon.busName), true, "the bus name is gone \(context)", file: file, line: line)
        let started = Date()
        do {
            let client = try served.connect()
            XCTAssertTrue(try client.command("ping").isOK, file: file, line: line)
            let status = try client.command("status")
            XCTAssertNotNil(status.value("state"), "status: \(status)", file: file, line: line)
        } catch {
            XCTFail("a new client was not served \(context): \(error)", file: file, line: line)
        }
        let took = Date().timeIntervalSince(started)
        let limit = Sanitizer.judgesTime ? seconds : Sanitizer.scaled(seconds)
        XCTAssertLessThan(took, limit, "connect, ping and status took \(took) s \(context)", file: file, line: line)
    }

    /// The daemon's open descriptors come back to `before` (closing is asynchronous: waits).
    func assertDescriptorsBack(_ served: Served, to before: Int, _ context: String = "",
                               file: StaticString = #filePath, line: UInt = #line) {
        var now = -1
        let back = eventually(timeout: Sanitizer.scaled(5)) {
            now = (try? served.openDescriptors()) ?? -1
            return now >= 0 && now <= before
        }
        XCTAssertTrue(back, "open descriptors \(before) → \(now) \(context):\n"
                      + ProcessFacts.descriptorTargets(of: served.pid).joined(separator: "\n"), file: file, line: line)
    }
}

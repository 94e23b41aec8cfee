import Foundation
import XCTest

/// A snapserver of the test's own: its ports picked free, its configuration written here, its
/// stream `Aubade` a `pipe://` source in the test run's folder with Aubade's control script
/// (`aubade-snapcast`, a link to the binary under test). Stopped (or killed) by PID.
final class PrivateSnapserver {
    static let streamName = "Aubade"
    let directory: URL
    let fifo: URL
    let bufferMilliseconds: Int
    private(set) var streamPort = 0
    private(set) var controlPort = 0
    private(set) var httpPort = 0
    private(set) var process: Subprocess?
    private let withControlScript: Bool

    init(bufferMilliseconds: Int = 1000, controlScript: Bool = true) throws {
        directory = TestRunDirectory.url.appendingPathComponent("snapserver-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
        fifo = directory.appendingPathComponent("aubade.fifo")
        self.bufferMilliseconds = bufferMilliseconds
        withControlScript = controlScript
        // snapserver 0.26 runs the controlscript path with its own arguments only: the link's
        // name selects the verb.
        try FileManager.default.createSymbolicLink(atPath: self.controlScript.path, withDestinationPath: try Daemon.binaryPath())
    }

    /// The link snapserver runs as the stream's control script.
    var controlScript: URL { directory.appendingPathComponent("aubade-snapcast") }

    /// The stream's source, as snapserver.conf and aubade.conf both write it.
    var source: String {
        "pipe://\(fifo.path)?name=\(Self.streamName)&sampleformat=48000:16:2&codec=pcm"
            + (withControlScript ? "&controlscript=\(controlScript.path)" : "")
    }

    /// Starts it (on fresh free ports the first time) and waits until its control port answers.
    func start(timeout: TimeInterval = 10) throws {
        var lastError: (any Error)?
        for _ in 0..<3 {
            if streamPort == 0 || lastError != nil {
                (streamPort, controlPort, httpPort) = (try Loopback.freePort(), try Loopback.freePort(), try Loopback.freePort())
            }
            try writeConfiguration()
            let process = try Subprocess("snapserver", ["-c", configuration.path])
            self.process = process
            if waitForControlPort(timeout: timeout) { return }
            lastError = DaemonError("snapserver did not listen on 127.0.0.1:\(controlPort); stderr:\n\(process.stderr.text)")
            process.stop(grace: 2)
        }
        throw lastError ?? DaemonError("snapserver did not start")
    }

    /// SIGKILL: gone at once, as a crash.
    func kill() {
        process?.stop(signal: SIGKILL, grace: 5)
    }

    func stop() {
        process?.stop(grace: 3)
    }

    var configuration: URL { directory.appendingPathComponent("snapserver.conf") }

    private func writeConfiguration() throws {
        try """
            [server]
            datadir = \(directory.appendingPathComponent("data").path)
            [http]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(httpPort)
            [tcp]
            enabled = true
            bind_to_address = 127.0.0.1
            port = \(controlPort)
            [stream]
            bind_to_address = 127.0.0.1
            port = \(streamPort)
            source = \(source)
            buffer = \(bufferMilliseconds)
            [logging]
            sink = stderr
            filter = *:info

            """.write(to: configuration, atomically: true, encoding: .utf8)
    }

    private func waitForControlPort(timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if let connection = try? SnapcastRPC(port: controlPort) {
                connection.close()
                return true
            }
            if process?.isRunning == false { return false }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    /// aubade.conf for an `aubade serve` that plays into this server.
    func aubadeConfiguration(extra: String = "") throws -> URL {
        let url = directory.appendingPathComponent("aubade.conf")
        try """
            output = snapcast
            snapcast-source = \(source)
            snapcast-buffer = \(bufferMilliseconds)
            \(extra)
            """.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// Its log, for failure messages.
    var log: String { process?.stderr.text ?? "" }

    func remove() {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }
}

/// One room: a snapclient playing to the PulseAudio sink named after it.
final class SnapcastRoom {
    let name: String
    let process: Subprocess

    init(_ name: String, server: PrivateSnapserver) throws {
        self.name = name
        process = try Subprocess("snapclient", ["-h", "127.0.0.1", "-p", "\(server.streamPort)", "--player", "pulse",
                                                "--hostID", name, "--logsink", "stderr"],
                                 environment: ["PULSE_SINK": name])
    }

    func stop() {
        process.stop(grace: 3)
    }
}

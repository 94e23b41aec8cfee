import Foundation

/// `aubade snapcast-control` run as snapserver runs it: JSON-RPC lines written to its stdin,
/// its stdout read line by line, its memory read from /proc. Stopped by PID.
final class ControlScriptProcess {
    private let process = Process()
    private let input = Pipe()
    let output = OutputBuffer()
    let errors = OutputBuffer()

    /// `everything`, when given, is all the script's stdin: written and closed before it starts,
    /// so the requests and the end of input reach it together (at most a pipe's 64 KiB).
    init(arguments: [String] = ["snapcast-control", "--stream=Aubade", "--snapcast-port=1780"],
         everything: Data? = nil) throws {
        process.executableURL = URL(fileURLWithPath: try Daemon.binaryPath())
        process.arguments = arguments
        process.standardInput = input
        if let everything {
            try input.fileHandleForWriting.write(contentsOf: everything)
            try input.fileHandleForWriting.close()
        }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        for (pipe, buffer) in [(out, output), (err, errors)] {
            let handle = pipe.fileHandleForReading
            Thread {
                while true {
                    let chunk = handle.availableData
                    if chunk.isEmpty { break }
                    buffer.append(chunk)
                }
                buffer.close()
            }.start()
        }
    }

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    func send(_ text: String) throws {
        try send(Data(text.utf8))
    }

    func send(_ data: Data) throws {
        try input.fileHandleForWriting.write(contentsOf: data)
    }

    /// The first line from `index` on that parses as a JSON object satisfying `match`, with its index.
    func waitForObject(from index: Int, timeout: TimeInterval = 5,
                       where match: ([String: Any]) -> Bool) -> (object: [String: Any], index: Int)? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var next = index
        while Date() < deadline {
            let lines = output.lines
            while next < lines.count {
                defer { next += 1 }
                if let object = try? JSONSerialization.jsonObject(with: Data(lines[next].utf8)) as? [String: Any], match(object) {
                    return (object, next)
                }
            }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return nil
    }

    /// The answer (result or error) to request `id`, from line `index` on.
    func waitForAnswer(id: Int, from index: Int, timeout: TimeInterval = 5) -> [String: Any]? {
        waitForObject(from: index, timeout: timeout) { $0["id"] as? Int == id && $0["method"] == nil }?.object
    }

    /// Peak resident memory (VmHWM) in kB.
    var peakMemoryKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    /// Waits for the script to exit; its status, or nil if it still runs after `timeout`.
    func waitForExit(timeout: TimeInterval) -> Int32? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        return process.isRunning ? nil : process.terminationStatus
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { kill(process.processIdentifier, SIGTERM) }
        let deadline = Date(timeIntervalSinceNow: 3)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

import Foundation

/// An X display with no screen, for a desktop program under test: `Xvfb -displayfd` picks a free
/// display number and says it once the server is ready; `-fbdir` keeps the framebuffer in a file
/// (XWD), so a screenshot is that file, made a PNG by `xwd_to_png.py`. Stopped by its PID,
/// which removes its lock file and socket (in /tmp/.X11-unix, where every X server puts them).
/// Xvfb is listed in Tests/needs.txt by hand: check-needs does not see a program started
/// through `UnblockedProcess`, which it needs (it signals readiness to a parent that waits).
final class XvfbDisplay: CustomStringConvertible {
    let process: UnblockedProcess
    /// ":N", for DISPLAY.
    let display: String
    private let framebufferFolder: URL

    init(width: Int = 1280, height: Int = 800) throws {
        framebufferFolder = TestRunDirectory.url.appendingPathComponent("xvfb-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: framebufferFolder, withIntermediateDirectories: true)
        let server = try UnblockedProcess("Xvfb", ["-displayfd", "1", "-screen", "0", "\(width)x\(height)x24",
                                                   "-fbdir", framebufferFolder.path, "-nolisten", "tcp", "-noreset"])
        process = server
        var number: String?
        let up = eventually(timeout: Sanitizer.scaled(10)) {
            let said = server.stdout
            if said.hasSuffix("\n"), let value = Int(said.trimmingCharacters(in: .whitespacesAndNewlines)) { number = String(value) }
            return number != nil || !server.isRunning
        }
        guard up, let number else {
            server.stop()
            throw DaemonError("Xvfb did not start: \(server)")
        }
        display = ":\(number)"
    }

    deinit { stop() }

    /// The screen as X draws it now (an XWD file's bytes).
    func framebuffer() throws -> Data {
        try Data(contentsOf: framebufferFolder.appendingPathComponent("Xvfb_screen0"))
    }

    /// Waits until the screen has not changed for `quiet` seconds (the program finished drawing),
    /// at most `timeout`; whether it settled.
    func waitUntilStill(quiet: TimeInterval = 0.5, timeout: TimeInterval = 10) -> Bool {
        var last = (try? framebuffer()) ?? Data()
        var since = Date()
        let deadline = Date(timeIntervalSinceNow: Sanitizer.scaled(timeout))
        // Polled every 100 ms: the framebuffer is 4 MB.
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            let now = (try? framebuffer()) ?? Data()
            if now != last {
                last = now
                since = Date()
            } else if Date().timeIntervalSince(since) >= quiet {
                return true
            }
        }
        return false
    }

    /// Writes the screen as a PNG to `file`; returns the share of the screen that is not its
    /// most common colour (0: nothing drawn).
    @discardableResult
    func screenshot(to file: URL) throws -> Double {
        let result = try Shell.run(PythonScript.interpreter, try PythonScript.arguments(
            "xwd_to_png", [framebufferFolder.appendingPathComponent("Xvfb_screen0").path, file.path]), timeout: 30)
        guard result.succeeded, let share = result.trimmedOutput.split(separator: " ").last.flatMap({ Double($0) }) else {
            throw DaemonError("xwd_to_png.py: \(result)")
        }
        return share
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: framebufferFolder)
    }

    var description: String { "Xvfb \(display) (\(process))" }
}

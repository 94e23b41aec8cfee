import Foundation

/// A slow disk (a USB stick, NFS, a spun-down drive): a small FUSE file system (python3-fusepy)
/// that serves a folder read-only at a mount point of its own and makes every read() of one
/// process (the daemon under test) sleep first. The delay can change while files are open (it
/// is read from a control file before each read), so a test can let the daemon load a track
/// fast and then make the disk slow under it. Mounted with `direct_io`, so the page cache
/// answers nothing and every read of the daemon reaches the file system, not only the first.
///
/// Only the chosen process is slowed: other programs on this machine that walk the file tree
/// (an indexer, another test's AddTrack of `file:///`) were seen reading the mount, and must
/// not hang in it.
///
/// Every read is logged (`read-start N OFFSET SIZE DELAY PID PATH`, `read-end N`), so a test can
/// wait until a slow read is under way. `close()` unmounts by path and stops the python process
/// by PID; stop the daemon (whose reads hold the mount busy) first.
final class SlowFileSystem {
    let source: URL
    /// A temporary directory: the script, the control file and the mount point.
    let directory: URL
    var mountPoint: URL { directory.appendingPathComponent("mnt", isDirectory: true) }
    private var control: URL { directory.appendingPathComponent("delay") }
    private let process: Subprocess
    private var closed = false

    init(serving source: URL) throws {
        self.source = source
        var template = Array("\(NSTemporaryDirectory())aubade-slowfs.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw DaemonError("mkdtemp failed: errno \(errno)") }
        directory = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        do {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("mnt"), withIntermediateDirectories: true)
            try "0".write(to: directory.appendingPathComponent("delay"), atomically: true, encoding: .utf8)
            // Debian's python3-fusepy is in the system python (Debian names the module `fusepy`).
            process = try Subprocess(PythonScript.interpreter, [try PythonScript.path("slow_fs"), source.path,
                                              directory.appendingPathComponent("mnt").path,
                                              directory.appendingPathComponent("delay").path])
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
        let deadline = Date(timeIntervalSinceNow: 10)
        while !isMounted {
            if !process.isRunning || Date() >= deadline {
                process.stderr.waitUntilClosed(timeout: 1)
                let why = "the slow file system did not mount (python exited: \(process.status.map(String.init) ?? "no")): "
                    + process.stderr.text
                close()
                throw DaemonError(why)
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
    }

    deinit { close() }

    /// The file or folder at `relativePath` of the source, as seen through the slow mount.
    func url(_ relativePath: String) -> URL {
        mountPoint.appendingPathComponent(relativePath)
    }

    /// The file at `original` (inside `source`) as seen through the slow mount.
    func url(of original: URL) -> URL {
        let base = source.standardizedFileURL.path
        let path = original.standardizedFileURL.path
        precondition(path.hasPrefix(base + "/"), "\(path) is not inside \(base)")
        return url(String(path.dropFirst(base.count + 1)))
    }

    /// From now on, every read() by process `pid` (any of its threads) sleeps `seconds` first;
    /// reads already sleeping finish their own delay.
    func makeSlow(_ seconds: Double, for pid: Int32) {
        try? "\(seconds) \(pid)".write(to: control, atomically: true, encoding: .utf8)
    }

    /// Reads are fast again (those sleeping finish their own delay).
    func makeFast() {
        try? "0".write(to: control, atomically: true, encoding: .utf8)
    }

    /// How many reads have started so far.
    var readsStarted: Int { process.stderr.lines.filter { $0.hasPrefix("read-start ") }.count }

    /// How many reads started but have not returned yet.
    var readsInProgress: Int {
        let lines = process.stderr.lines
        return lines.filter { $0.hasPrefix("read-start ") }.count - lines.filter { $0.hasPrefix("read-end ") }.count
    }

    /// Waits until read number `count + 1` or later starts with a delay of at least `delay`;
    /// returns its log line, nil on timeout.
    func waitForSlowRead(after count: Int, delay: Double, timeout: TimeInterval) -> String? {
        process.stderr.waitForLine(timeout: timeout) { line in
            let fields = line.split(separator: " ")
            return fields.count >= 5 && fields[0] == "read-start" && (Int(fields[1]) ?? 0) > count
                && (Double(fields[4]) ?? 0) >= delay
        }?.line
    }

    /// Waits until the read whose `read-start` line is `startLine` returned; false on timeout.
    func waitForReadEnd(of startLine: String, timeout: TimeInterval) -> Bool {
        let fields = startLine.split(separator: " ")
        guard fields.count > 1 else { return false }
        let end = "read-end \(fields[1])"
        return process.stderr.waitForLine(timeout: timeout) { $0 == end } != nil
    }

    var log: String { process.stderr.lines.suffix(20).joined(separator: "\n") }

    /// Whether the mount point is mounted (per /proc/self/mountinfo).
    var isMounted: Bool {
        guard let table = try? String(contentsOfFile: "/proc/self/mountinfo", encoding: .utf8) else { return false }
        let target = mountPoint.standardizedFileURL.path
        return table.split(separator: "\n").contains { line in
            let fields = line.split(separator: " ")
            return fields.count > 4 && fields[4] == target
        }
    }

    /// Makes reads fast, unmounts by path (fusermount -u, else umount, else a lazy umount),
    /// stops the python process by PID and removes the directory (never while still mounted).
    func close() {
        guard !closed else { return }
        closed = true
        makeFast()
        let path = mountPoint.path
        for (tool, arguments) in [("fusermount", ["-u", path]), ("umount", [path]), ("umount", ["-l", path])] {
            guard isMounted else { break }
            _ = try? Shell.run(tool, arguments, timeout: 10)
        }
        process.stop(grace: 3)
        if isMounted { _ = try? Shell.run("umount", ["-l", path], timeout: 10) }
        if isMounted {
            print("SlowFileSystem: \(path) is still mounted; leaving \(directory.path) in place")
        } else {
            try? FileManager.default.removeItem(at: directory)
        }
    }
}

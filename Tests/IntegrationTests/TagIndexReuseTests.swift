import Foundation
import XCTest
@testable import TestSupport

/// The tag index: a folder queued once is queued again, after a restart, without reading its
/// files — shown by the daemon's own I/O counters (/proc/<pid>/io).
final class TagIndexReuseTests: AubadeTestCase {
    /// `rchar` and `syscr` of the process (bytes and read calls, page cache or not) and
    /// `read_bytes` (what came from the disk).
    private func readCounters(_ pid: Int32) throws -> (bytes: Int, calls: Int, disk: Int) {
        let text = try String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8)
        var values: [String: Int] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: ":")
            if parts.count == 2 { values[String(parts[0])] = Int(parts[1].trimmingCharacters(in: .whitespaces)) }
        }
        return (try XCTUnwrap(values["rchar"]), try XCTUnwrap(values["syscr"]), values["read_bytes"] ?? 0)
    }

    /// A folder of `count` copies (own inodes) of one 20 s MP3 with an Info frame.
    private func folderOfFullFiles(_ count: Int) throws -> (URL, Int) {
        let folder = try makeDirectory("indexed")
        let wav = folder.appendingPathComponent("tone.wav"), first = folder.appendingPathComponent("01.mp3")
        XCTAssertTrue(try Shell.run("sox", ["-q", "-n", "-r", "44100", "-c", "2", "-b", "16", wav.path, "synth", "20", "sine", "330", "vol", "0.5"], timeout: 60).succeeded)
        XCTAssertTrue(try Shell.run("lame", ["--quiet", "-b", "192", "--add-id3v2", "--tt", "Indexed", wav.path, first.path], timeout: 120).succeeded)
        try FileManager.default.removeItem(at: wav)
        for number in 2...count {
            try FileManager.default.copyItem(at: first, to: folder.appendingPathComponent(String(format: "%02d.mp3", number)))
        }
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: first.path)[.size] as? Int)
        return (folder, size * count)
    }

    /// `aubade add FOLDER` on a fresh daemon in `home`; the daemon's read counters' deltas.
    private func add(_ folder: URL, count: Int, home: URL) throws -> (daemon: Daemon, bytes: Int, calls: Int, disk: Int) {
        let daemon = try startDaemon([], home: home)
        // A restart in the same home puts the saved queue back first.
        let queued = try tracks().count
        let before = try readCounters(daemon.pid)
        let result = try aubade("add", folder.path)
        XCTAssertEqual(result.status, 0, "aubade add: \(result)")
        try eventually("\(count) more entries", timeout: 30) { try tracks().count == queued + count }
        let after = try readCounters(daemon.pid)
        return (daemon, after.bytes - before.bytes, after.calls - before.calls, after.disk - before.disk)
    }

    /// Writes back and drops the folder's files from the page cache (no root needed).
    private func evictFromPageCache(_ folder: URL) throws {
        let result = try Shell.run(PythonScript.interpreter, try PythonScript.arguments("evict_page_cache", [folder.path]), timeout: 60)
        XCTAssertTrue(result.succeeded, "\(result)")
    }

    func testReAddingAKnownFolderAfterARestartReadsNoAudioFile() throws {
        let count = 20
        let (folder, totalSize) = try folderOfFullFiles(count)
        let home = try makeHome()
        let index = home.appendingPathComponent(".cache/aubade/tags.index")

        try evictFromPageCache(folder)
        let first = try add(folder, count: count, home: home)
        print("tag index: first add read \(first.bytes) bytes (\(first.disk) from the disk) in \(first.calls) calls for \(count) files of \(totalSize) bytes")
        // Without readahead advice the kernel would fetch ~450 KiB of each file from the disk.
        if first.disk > 0 { XCTAssertLessThanOrEqual(first.disk / count, 256 * 1024, "read_bytes over 256 KiB per file") }
        XCTAssertLessThan(first.bytes, totalSize / 2, "the first add read most of the files")
        XCTAssertLessThanOrEqual(first.bytes / count, 256 * 1024, "over 256 KiB per file")
        // At once, well within the 2 s the index waits before saving: what it learnt is saved
        // at exit (found by the library benchmark, whose restart came first and read it all again).
        try terminate(first.daemon)
        XCTAssertTrue(FileManager.default.fileExists(atPath: index.path), "the tag index was not saved at exit")

        let second = try add(folder, count: count, home: home)
        print("tag index: second add read \(second.bytes) bytes in \(second.calls) calls")
        XCTAssertLessThan(second.bytes, first.bytes / 4, "the second add read the files again")
        XCTAssertLessThan(second.bytes, totalSize / 20)
        XCTAssertEqual(try queueTitles().suffix(count), Array(repeating: "Indexed", count: count)[...])
        try terminate(second.daemon)

        // A retagged file is read again: its new title shows.
        let retag = folder.appendingPathComponent("05.mp3")
        let copy = folder.appendingPathComponent("retagged.tmp")
        XCTAssertTrue(try Shell.run("lame", ["--quiet", "--mp3input", "-b", "192", "--add-id3v2", "--tt", "Retagged", retag.path, copy.path], timeout: 120).succeeded)
        _ = rename(copy.path, retag.path)
        _ = try add(folder, count: count, home: home)
        XCTAssertEqual(try queueTitles().suffix(count).dropFirst(4).first, "Retagged")
    }

    /// `read_bytes` of any process (what came from the disk), nil once it is gone.
    private func diskReads(_ pid: Int32) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return nil }
        return text.split(separator: "\n").first { $0.hasPrefix("read_bytes:") }
            .flatMap { Int($0.dropFirst("read_bytes:".count).trimmingCharacters(in: .whitespaces)) }
    }

    /// M4A files are read by the FFmpeg helper, from their headers only (the `moov` atom at the
    /// end of each four-minute file, a cover inside it); queued again after a restart, the tag
    /// index answers and no helper is started at all.
    func testAnM4AFolderIsReadByItsHeadersAndNotAgainAfterARestart() throws {
        let count = 8
        let folder = try makeDirectory("indexed-m4a")
        let first = folder.appendingPathComponent("01.m4a")
        try FileManager.default.copyItem(at: try Fixtures.fourMinuteM4A(moovAtEnd: true), to: first)
        for number in 2...count {
            try FileManager.default.copyItem(at: first, to: folder.appendingPathComponent(String(format: "%02d.m4a", number)))
        }
        let size = try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: first.path)[.size] as? Int)
        let home = try makeHome()
        try evictFromPageCache(folder)

        let daemon = try startDaemon([], home: home)
        XCTAssertEqual(try aubade("add", folder.path).status, 0)
        try eventually("\(count) entries", timeout: 60) { try tracks().count == count }
        // The tag reader lives on for 2 s after its last file: long enough to read its counter.
        let helpers = HelperProcesses.of(daemon.pid)
        XCTAssertEqual(helpers.count, 1, "one tag-reading helper for the whole folder: \(helpers)")
        if let helper = helpers.first, let disk = diskReads(helper) {
            print("M4A tags: the helper read \(disk) bytes from the disk for \(count) files of \(size) bytes (moov at the end)")
            XCTAssertLessThanOrEqual(disk / count, 256 * 1024, "over 256 KiB per file read from the disk")
        }
        XCTAssertEqual(try queueTitles(), Array(repeating: Fixtures.fourMinuteM4ATitle, count: count))
        try terminate(daemon)

        let again = try startDaemon([], home: home)
        try eventually("the restored queue", timeout: 30) { try tracks().count == count }
        // The restored current track is prepared, paused, by a decoder helper; Stop lets it go
        // (the queue stays). Its cover is read from its file (covers are not indexed) by the tag
        // reader, which goes idle 2 s later. Then no helper is left. Waited for first: under
        // ThreadSanitizer the restored daemon once had no helper yet when the test looked, and
        // started the cover's tag reader during the second add (CI's tsan phase failed so).
        try eventually("the restored track's cover", timeout: 30) { try self.metadata()["mpris:artUrl"] != nil }
        XCTAssertTrue(try Bus.player("Stop").succeeded)
        try eventually("no helper before the second add", timeout: 10) { HelperProcesses.of(again.pid).isEmpty }
        XCTAssertEqual(try aubade("add", folder.path).status, 0)
        var sawHelper = false
        try eventually("\(2 * count) entries", timeout: 30) {
            sawHelper = sawHelper || !HelperProcesses.of(again.pid).isEmpty
            return try tracks().count == 2 * count
        }
        XCTAssertFalse(sawHelper || !HelperProcesses.of(again.pid).isEmpty, "a helper was started to read known files")
    }
}

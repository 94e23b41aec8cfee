import Foundation
import Testing
@testable import Decoding
import PlayerCore
@testable import TestSupport

/// The FFmpeg helper failing mid-track, for real: crashed (SIGSEGV), stopped (SIGSTOP),
/// allocating without end, missing. Each is one failed file with a reason that says what
/// happened — never a hang or a crash of the caller.
@Suite struct HelperFaultTests {
    let file: String

    init() throws {
        file = try Fixtures.makeDirectory() + "/tone.m4a"
        try Fixtures.makeM4A(at: file, seconds: 10)
    }

    private func openAndReadOnce() throws -> (FFmpegDecoder, UnsafeMutableRawBufferPointer) {
        let decoder = try #require(try AudioDecoders.open(path: FilePath(file)!) as? FFmpegDecoder)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 16_384, alignment: 16)
        #expect(try decoder.read(into: buffer) > 0)
        return (decoder, buffer)
    }

    @Test func aCrashFailsTheReadAndSaysSo() throws {
        let (decoder, buffer) = try openAndReadOnce()
        defer { buffer.deallocate() }
        #expect(kill(decoder.helperPID, SIGSEGV) == 0)
        let error = #expect(throws: DecodingError.self) {
            for _ in 0..<100 { _ = try decoder.read(into: buffer) }
        }
        #expect(error?.reason.contains("the FFmpeg helper crashed (SIGSEGV)") == true, "\(String(describing: error))")
        // Once failed, it stays failed (no second helper behind the caller's back).
        #expect(throws: DecodingError.self) { try decoder.seek(to: 0) }
    }

    @Test func aStoppedHelperIsNoticedAtOnceAndKilled() throws {
        let (decoder, buffer) = try openAndReadOnce()
        defer { buffer.deallocate() }
        let pid = decoder.helperPID
        #expect(kill(pid, SIGSTOP) == 0)
        let started = Date()
        let error = #expect(throws: DecodingError.self) {
            for _ in 0..<1000 { _ = try decoder.read(into: buffer) }
        }
        let waited = Date().timeIntervalSince(started)
        #expect(error?.reason.contains("was stopped") == true, "\(String(describing: error))")
        #expect(waited < 2, "noticed after \(waited) s")
        // Killed (SIGKILL works on a stopped process): gone within a second.
        let deadline = Date(timeIntervalSinceNow: 2)
        while kill(pid, 0) == 0, Date() < deadline { usleep(20_000) }
        #expect(kill(pid, 0) != 0)
    }

    /// In a process of its own (`aubade decode`): the fault is asked for in the environment,
    /// which the other tests of this process must not see.
    @Test func aHelperThatAllocatesWithoutEndIsStopped() throws {
        let result = try Self.aubadeDecode(file, environment: ["AUBADE_FFMPEG_TEST_FAULT": "allocate:65536"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the FFmpeg helper"), "\(result.stderr)")
        print("allocation fault: \(result.stderr)")
    }

    @Test func aMissingHelperIsNamed() throws {
        let result = try Self.aubadeDecode(file, environment: ["AUBADE_FFMPEG_HELPER": "/nonexistent/aubade-ffmpeg"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("the FFmpeg helper is not installed (no aubade-ffmpeg at /nonexistent/aubade-ffmpeg)"),
                "\(result.stderr)")
    }

    /// `aubade decode FILE > /dev/null` beside the test executable, with `environment` added.
    static func aubadeDecode(_ file: String, environment: [String: String]) throws -> (status: Int32, stderr: String) {
        let testExecutable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        let binary = URL(fileURLWithPath: testExecutable).deletingLastPathComponent().appendingPathComponent("aubade")
        let process = Process()
        process.executableURL = binary
        process.arguments = ["decode", file]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        process.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}

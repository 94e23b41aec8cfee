import Foundation
import PlayerCore
import Testing
import Persistence
@testable import TestSupport

/// Whatever `state.json` holds, `load()` never crashes; what it cannot use it keeps aside.
@Suite struct CorruptStateTests {
    /// A valid state of two existing files, as text to mangle.
    private func validState(in dir: String) throws -> String {
        let paths = try makeFiles(["a.mp3", "b.mp3"], in: dir)
        let store = StateStore(directory: dir + "/valid")
        try store.save(memento(paths, current: 1, order: [1, 0]))
        return String(decoding: try Fixtures.contents(of: store.statePath), as: UTF8.self)
    }

    /// Writes `bytes` as state.json, loads, and checks the file went aside intact.
    private func expectCorrupt(_ bytes: [UInt8], in dir: String, reasonContains: String? = nil,
                               sourceLocation: SourceLocation = #_sourceLocation) throws {
        let store = StateStore(directory: dir)
        try Fixtures.write(bytes, to: store.statePath)
        guard case .corrupt(let reason, let keptAs) = store.load() else {
            Issue.record("not corrupt: \(String(decoding: bytes, as: UTF8.self))", sourceLocation: sourceLocation)
            return
        }
        if let reasonContains {
            #expect(reason.contains(reasonContains), "\(reason)", sourceLocation: sourceLocation)
        }
        #expect(keptAs.hasPrefix(store.statePath + ".corrupt-"), sourceLocation: sourceLocation)
        #expect(try Fixtures.contents(of: keptAs) == bytes, sourceLocation: sourceLocation)
        #expect(!fileExists(store.statePath), sourceLocation: sourceLocation)
        // The daemon then starts empty, and the next load sees no file.
        #expect(store.load() == .empty, sourceLocation: sourceLocation)
    }

    @Test func unusableFilesAreKeptAside() throws {
        let dir = try Fixtures.makeDirectory()
        let valid = try validState(in: dir)
        func replacing(_ old: String, _ new: String) -> [UInt8] {
            precondition(valid.contains(old), "fixture lacks \(old)")
            return Array(valid.replacingOccurrences(of: old, with: new).utf8)
        }
        let cases: [(String, [UInt8], String)] = [
            ("empty", [], "not a state file"),
            ("truncated", Array(valid.utf8.prefix(valid.utf8.count / 2)), "not a state file"),
            ("random bytes", (0..<4096).map { _ in UInt8.random(in: 0...255) }, "not a state file"),
            ("NUL bytes", [UInt8](repeating: 0, count: 100), "not a state file"),
            ("array", Array("[1,2,3]".utf8), "not a state file"),
            ("no version", Array("{\"tracks\":[]}".utf8), "not a state file"),
            ("version as string", replacing("\"version\":1", "\"version\":\"1\""), "not a state file"),
            ("newer version", replacing("\"version\":1", "\"version\":2"), "version 2"),
            ("huge version", replacing("\"version\":1", "\"version\":1e400"), "not a state file"),
            ("huge position", replacing("\"position\":5000000", "\"position\":99999999999999999999999"), "not a state file"),
            ("huge index", replacing("\"currentIndex\":1", "\"currentIndex\":9223372036854775807"), "currentIndex"),
            ("negative index", replacing("\"currentIndex\":1", "\"currentIndex\":-1"), "currentIndex"),
            ("index out of range", replacing("\"currentIndex\":1", "\"currentIndex\":2"), "currentIndex"),
            ("fractional index", replacing("\"currentIndex\":1", "\"currentIndex\":0.5"), "not a state file"),
            ("unknown loop", replacing("\"loopStatus\":\"Playlist\"", "\"loopStatus\":\"Sometimes\""), "loopStatus"),
            ("shuffle as number", replacing("\"shuffle\":false", "\"shuffle\":0"), "not a state file"),
            ("duplicate in order", replacing("\"playOrder\":[1,0]", "\"playOrder\":[1,1]"), "permutation"),
            ("negative in order", replacing("\"playOrder\":[1,0]", "\"playOrder\":[-1,0]"), "permutation"),
            ("short order", replacing("\"playOrder\":[1,0]", "\"playOrder\":[1]"), "playOrder"),
            ("null tracks", replacing("\"tracks\":[", "\"tracks\":null,\"x\":["), "not a state file"),
            ("track without path", Array(valid.replacingOccurrences(of: "\"path\":", with: "\"pith\":").utf8), "no \"path\""),
            ("relative path", Array(valid.replacingOccurrences(of: "\"path\":\"\\/", with: "\"path\":\"").replacingOccurrences(of: "\"path\":\"/", with: "\"path\":\"").utf8), "absolute path"),
            // Negative positions, volumes and lengths are saturated, not corrupt: see
            // StateHardeningTests.outOfRangeNumbersAreSaturated.
        ]
        for (name, bytes, reason) in cases {
            let caseDir = dir + "/" + name
            try FileManager.default.createDirectory(atPath: caseDir, withIntermediateDirectories: true)
            try expectCorrupt(bytes, in: caseDir, reasonContains: reason)
        }
    }

    @Test func keptCopiesAreNeverOverwritten() throws {
        let dir = try Fixtures.makeDirectory()
        let store = StateStore(directory: dir)
        var kept: [String] = []
        for round in 0..<3 {
            try Fixtures.write(Array("broken \(round)".utf8), to: store.statePath)
            guard case .corrupt(_, let keptAs) = store.load() else { Issue.record("not corrupt"); return }
            kept.append(keptAs)
        }
        #expect(Set(kept).count == 3)   // same second: "-2", "-3" added
        for (round, path) in kept.enumerated() {
            #expect(try Fixtures.contents(of: path) == Array("broken \(round)".utf8))
        }
    }

    @Test func aDirectoryInPlaceOfTheFile() throws {
        let dir = try Fixtures.makeDirectory()
        let store = StateStore(directory: dir)
        try FileManager.default.createDirectory(atPath: store.statePath, withIntermediateDirectories: true)
        guard case .corrupt(let reason, let keptAs) = store.load() else { Issue.record("not corrupt"); return }
        #expect(reason.contains("unreadable"))
        #expect(keptAs.hasPrefix(store.statePath + ".corrupt-"))
        #expect(store.load() == .empty)
    }

    @Test(.enabled(if: getuid() != 0, "root reads a mode-000 file anyway"))
    func anUnreadableFile() throws {
        let dir = try Fixtures.makeDirectory()
        let store = StateStore(directory: dir)
        try store.save(memento(try makeFiles(["a.mp3"], in: dir), current: 0))
        chmod(store.statePath, 0)
        guard case .corrupt(let reason, let keptAs) = store.load() else { Issue.record("not corrupt"); return }
        #expect(reason.contains("permission denied") || reason.contains("Permission denied"))
        #expect(fileExists(keptAs))
    }

    /// Random damage to a valid file: every outcome is either a restore or a kept copy.
    @Test func fuzzedFilesNeverCrash() throws {
        let dir = try Fixtures.makeDirectory()
        let valid = Array(try validState(in: dir).utf8)
        let store = StateStore(directory: dir + "/fuzz")
        try FileManager.default.createDirectory(atPath: store.directory, withIntermediateDirectories: true)
        var generator = SystemRandomNumberGenerator()
        var corrupt = 0
        for _ in 0..<300 {
            var bytes = valid
            switch Int.random(in: 0..<4, using: &generator) {
            case 0: bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
            case 1:
                for _ in 0..<Int.random(in: 1...4, using: &generator) {
                    bytes[Int.random(in: 0..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
                }
            case 2:
                let digits = Array("-0123456789e.".utf8)
                for index in bytes.indices where bytes[index] >= 0x30 && bytes[index] <= 0x39 && Bool.random(using: &generator) {
                    bytes[index] = digits.randomElement(using: &generator)!
                }
            default:
                bytes.insert(contentsOf: Array(",\"x\":[{}]".utf8), at: Int.random(in: 0...bytes.count, using: &generator))
            }
            try Fixtures.write(bytes, to: store.statePath)
            switch store.load() {
            case .corrupt(_, let keptAs):
                corrupt += 1
                #expect(try Fixtures.contents(of: keptAs) == bytes)
                try FileManager.default.removeItem(atPath: keptAs)
            case .restored(let restored, _):
                #expect(restored.currentIndex.map { restored.tracks.indices.contains($0) } ?? true)
            case .empty:
                Issue.record("a file was there")
            }
        }
        #expect(corrupt > 100)
    }
}

import Foundation

/// The repository the tests were built from: its scripts (audio-session, check-needs), its
/// D-Bus interface files, its desktop entry. Found from this file's place in it
/// (Tests/TestSupport/Files/Repository.swift), so a test never depends on its working directory.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// A path inside the repository, e.g. `file("scripts/audio-session")`.
    static func file(_ relativePath: String) -> URL {
        root.appendingPathComponent(relativePath)
    }
}

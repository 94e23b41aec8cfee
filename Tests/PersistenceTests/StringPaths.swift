import PlayerCore
@testable import Persistence

// The tests name their files as text; the API takes bytes (`FilePath`). These overloads keep
// the tests about text paths readable; the byte paths have tests of their own.

extension Track {
    init(path: String) {
        self.init(path: FilePath(path)!)
    }
}

extension StateStore {
    func savePosition(currentIndex: Int?, path: String, position: Microseconds) throws(PersistenceError) {
        try savePosition(currentIndex: currentIndex, path: FilePath(path)!, position: position)
    }
}

extension CoverCache {
    func artURL(for trackPath: String) -> String? {
        artURL(for: FilePath(trackPath)!)
    }
}

extension BirthTime {
    static func of(_ path: String) -> (seconds: Int64, nanoseconds: UInt32)? {
        of(FilePath(path)!)
    }
}

/// Paths compared with the text they were made from.
func == (paths: [FilePath], texts: [String]) -> Bool {
    paths == texts.map { FilePath($0)! }
}

extension StateWriter {
    func savePosition(currentIndex: Int?, path: String, position: Microseconds) {
        savePosition(currentIndex: currentIndex, path: FilePath(path)!, position: position)
    }
}

import Foundation
@testable import TestSupport

/// One MPD server of the pair: its main client and how to open more.
final class SideBySideServer {
    let name: String
    var main: MPDConnection
    let connect: (_ unix: Bool) throws -> MPDConnection
    /// Queue versions recorded by `.markVersion`, by name.
    var versions: [String: String] = [:]

    init(name: String, main: MPDConnection, connect: @escaping (_ unix: Bool) throws -> MPDConnection) {
        self.name = name
        self.main = main
        self.connect = connect
    }
}

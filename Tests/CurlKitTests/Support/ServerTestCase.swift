import XCTest

/// A test case whose tests share one `TestServer`, started before the class's first test and
/// stopped (by PID, temp dir removed) after its last.
class ServerTestCase: XCTestCase {
    nonisolated(unsafe) private static var servers: [ObjectIdentifier: TestServer] = [:]
    nonisolated(unsafe) private static var setupErrors: [ObjectIdentifier: String] = [:]

    /// Whether this class's server also speaks HTTPS (with a test CA).
    class var usesTLS: Bool { false }

    override class func setUp() {
        super.setUp()
        do {
            servers[ObjectIdentifier(self)] = try TestServer(tls: usesTLS)
        } catch {
            setupErrors[ObjectIdentifier(self)] = "\(error)"
        }
    }

    override class func tearDown() {
        servers.removeValue(forKey: ObjectIdentifier(self))?.stop()
        super.tearDown()
    }

    var server: TestServer {
        get throws {
            let key = ObjectIdentifier(Self.self)
            guard let server = Self.servers[key] else {
                throw TestServer.SetupError("no test server: \(Self.setupErrors[key] ?? "not started")")
            }
            return server
        }
    }
}

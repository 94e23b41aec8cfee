import Configuration
import MPDProtocol
import XCTest

/// The MPD front-end's keys: where it listens, and whom it lets do what (mpd's own rules).
final class MPDSettingsTests: XCTestCase {
    let environment = ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/home/ada/.config"]
    let file = "/home/ada/.config/aubade/aubade.conf"

    func parse(_ text: String) throws(ConfigurationError) -> Settings {
        try Settings.parse(text, file: file, environment: environment)
    }

    func testByDefaultItListensOnLoopbackPort6600AndLetsEveryoneDoEverything() {
        let settings = Settings()
        XCTAssertEqual(settings.mpdAddress, "127.0.0.1")
        XCTAssertEqual(settings.mpdPort, 6600)
        XCTAssertTrue(settings.mpdPasswords.isEmpty)
        XCTAssertNil(settings.mpdDefaultPermissions)
        XCTAssertEqual(settings.mpdMaximumClients, 100)
    }

    func testTheLANPasswordsAndPermissionsAreReadAsMpdReadsThem() throws {
        let settings = try parse("""
            mpd-address = any
            mpd-port = 6601
            mpd-password = kitchen@read,add,player
            mpd-password = s3cr@t@read,add,control,admin
            default-permissions = read
            mpd-max-clients = 20
            """)
        XCTAssertEqual(settings.mpdAddress, "any")
        XCTAssertEqual(settings.mpdPort, 6601)
        XCTAssertEqual(settings.mpdPasswords["kitchen"], [.read, .add, .player])
        // The last @ separates: a password may hold one. control brings player, as in mpd.
        XCTAssertEqual(settings.mpdPasswords["s3cr@t"], [.read, .add, .control, .player, .admin])
        XCTAssertEqual(settings.mpdDefaultPermissions, [.read])
        XCTAssertEqual(settings.mpdMaximumClients, 20)
        XCTAssertNil(try parse("mpd-address = none").mpdAddress)
        XCTAssertEqual(try parse("mpd-address = ::1").mpdAddress, "::1")
    }

    func testBadValuesAreRefusedNamingTheKey() {
        let cases: [(String, String)] = [
            ("mpd-port = 0", "a port from 1 to 65535"),
            ("mpd-port = 6600.5", "a port from 1 to 65535"),
            ("mpd-port = 70000", "a port from 1 to 65535"),
            ("mpd-address = kitchen.local", "an IP address of this machine"),
            ("mpd-address = 300.1.1.1", "an IP address of this machine"),
            ("mpd-password = nopermissions", "SECRET@PERMISSIONS"),
            ("mpd-password = x@read,fly", "permissions from read, add, player, control and admin"),
            ("default-permissions = everything", "permissions from read, add, player, control and admin"),
            ("mpd-max-clients = 0", "a number from 1 to 10000"),
        ]
        for (line, expected) in cases {
            XCTAssertThrowsError(try parse(line), line) { error in
                let text = (error as? ConfigurationError)?.description ?? "\(error)"
                XCTAssertTrue(text.contains(expected), "\(line): \(text)")
                XCTAssertTrue(text.contains(String(line.prefix { $0 != " " })), "\(line): \(text)")
            }
        }
    }

    func testTheFlagsOverrideTheFile() throws {
        let flags = try ServeFlags.parse(["--mpd-address", "none", "--mpd-port=6700"], environment: environment,
                                         workingDirectory: "/home/ada")
        let settings = try parse("mpd-address = any\nmpd-port = 6601").applying(flags: flags)
        XCTAssertNil(settings.mpdAddress)
        XCTAssertEqual(settings.mpdPort, 6700)
        XCTAssertThrowsError(try ServeFlags.parse(["--mpd-port", "x"], environment: environment, workingDirectory: "/"))
    }
}

import Configuration
import XCTest

/// The page's keys and flags: loopback port 6680 by default, `any` for the LAN, `none` for no page.
final class WebSettingsTests: XCTestCase {
    let environment = ["HOME": "/home/ada", "XDG_CONFIG_HOME": "/home/ada/.config"]

    func parse(_ text: String) throws(ConfigurationError) -> Settings {
        try Settings.parse(text, file: "/home/ada/.config/aubade/aubade.conf", environment: environment)
    }

    func testByDefaultThePageIsServedToThisMachineOnPort6680() {
        XCTAssertEqual(Settings().httpAddress, "127.0.0.1")
        XCTAssertEqual(Settings().httpPort, 6680)
    }

    func testTheFileAndTheFlagsChooseWhere() throws {
        let settings = try parse("http-address = any\nhttp-port = 8080")
        XCTAssertEqual(settings.httpAddress, "any")
        XCTAssertEqual(settings.httpPort, 8080)
        XCTAssertNil(try parse("http-address = none").httpAddress)
        let flagged = try settings.applying(flags: ["--http-address", "::1", "--http-port=6681"], environment: environment,
                                            workingDirectory: "/")
        XCTAssertEqual(flagged.httpAddress, "::1")
        XCTAssertEqual(flagged.httpPort, 6681)
        XCTAssertNil(try settings.applying(flags: ["--http-address", "none"], environment: environment, workingDirectory: "/").httpAddress)
    }

    func testBadValuesAreRefusedNamingTheKey() {
        for bad in ["http-port = 0", "http-port = 70000", "http-port = 80.5", "http-address = example.com", "http-address = "] {
            XCTAssertThrowsError(try parse(bad), bad) { error in
                XCTAssertTrue("\(error)".contains("http-"), "\(error)")
            }
        }
        XCTAssertThrowsError(try Settings().applying(flags: ["--http-port", "x"], environment: environment, workingDirectory: "/"))
    }
}

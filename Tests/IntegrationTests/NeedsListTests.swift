import Foundation
import XCTest
@testable import TestSupport

/// The guard of `make test`'s first seconds (scripts/check-needs, against Tests/needs.txt), checked
/// against the tests themselves: the scan must keep finding what the harness starts and imports,
/// and the checker must fail, naming the thing and its package, when the list lacks one or the
/// machine does. (It once did not exist: a fresh machine failed 19 tests after 28 minutes on
/// `No module named 'fusepy'`.) No session needed.
final class NeedsListTests: XCTestCase {
    private let root = Repository.root
    private var script: String { root.appendingPathComponent("scripts/check-needs").path }

    private func checkNeeds(_ arguments: [String] = [], list: String? = nil) throws -> CommandResult {
        var environment: [String: String?] = [:]
        var listFile: URL?
        if let list {
            let file = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("needs-\(UUID().uuidString).txt")
            try list.write(to: file, atomically: true, encoding: .utf8)
            environment["AUBADE_NEEDS_FILE"] = file.path
            listFile = file
        }
        defer { if let listFile { try? FileManager.default.removeItem(at: listFile) } }
        return try Shell.run(script, arguments, environment: environment, currentDirectory: root, timeout: 60)
    }

    /// What the scan finds, in each of the forms the harness starts things: Shell.run("sox"…),
    /// a tuple on a `for (tool, arguments) in` line (fusermount), "/usr/bin/paplay", a
    /// `for tool in [...]` list (curl), and the helper scripts' imports (python3-dbus, fusepy).
    func testTheScanFindsWhatTheHarnessStartsAndImports() throws {
        let scan = try checkNeeds(["--scan"])
        XCTAssertTrue(scan.succeeded, "\(scan)")
        let found = Set(scan.stdout.split(separator: "\n").map(String.init))
        for expected in ["program sox", "program fusermount", "program paplay", "program curl", "program dbus-daemon",
                         "program playerctl", "python dbus", "python fusepy", "python gi"] {
            XCTAssertTrue(found.contains(expected), "the scan no longer finds \(expected): \(found.sorted())")
        }
        for standardLibrary in ["python json", "python socket", "python sys", "python http"] {
            XCTAssertFalse(found.contains(standardLibrary), "\(standardLibrary) is Python's own, not a package")
        }
        XCTAssertFalse(found.contains { $0.hasPrefix("program -") || $0 == "program open" },
                       "arguments and other players' verbs are not programs: \(found.sorted())")
    }

    /// The list in the repository covers everything the scan finds (so this passes exactly when
    /// `make test`'s first check does, on a machine with everything installed).
    func testTheListCoversEveryProgramAndModuleTheTestsUse() throws {
        let check = try checkNeeds()
        XCTAssertFalse(check.stderr.contains("does not list them"), "\(check.stderr)")
    }

    /// A list without fusermount (as install-deps was when a fresh machine failed) is refused,
    /// naming it.
    func testAListThatLacksAProgramTheTestsStartFails() throws {
        let list = try String(contentsOf: root.appendingPathComponent("Tests/needs.txt"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("program    fusermount") && !$0.hasPrefix("python     fusepy") }
            .joined(separator: "\n")
        let check = try checkNeeds(list: list)
        XCTAssertEqual(check.status, 1, "\(check)")
        XCTAssertTrue(check.stderr.contains("does not list them"), check.stderr)
        XCTAssertTrue(check.stderr.contains("program fusermount"), check.stderr)
        XCTAssertTrue(check.stderr.contains("python fusepy"), check.stderr)
    }

    /// Something listed but not on the machine: named, with its package and the apt-get line.
    func testAMissingProgramOrModuleIsNamedWithItsPackage() throws {
        let list = try String(contentsOf: root.appendingPathComponent("Tests/needs.txt"), encoding: .utf8)
            + "\nprogram aubade-no-such-tool aubade-tools-package the test of the check\n"
            + "python aubade_no_such_module python3-aubade-module the test of the check\n"
        let started = Date()
        let check = try checkNeeds(list: list)
        XCTAssertEqual(check.status, 1, "\(check)")
        XCTAssertTrue(check.stderr.contains("program aubade-no-such-tool (package aubade-tools-package)"), check.stderr)
        XCTAssertTrue(check.stderr.contains("python aubade_no_such_module (package python3-aubade-module)"), check.stderr)
        XCTAssertTrue(check.stderr.contains("apt-get install -y --no-install-recommends aubade-tools-package python3-aubade-module"),
                      check.stderr)
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "the check must take seconds, not minutes")
    }
}

import Foundation
import XCTest
@testable import TestSupport

/// Aubade as an installed user service: `make install` into a temporary prefix, D-Bus
/// activation from the installed activation file, `make uninstall` leaving nothing, and the
/// systemd unit passing `systemd-analyze verify`.
final class ServiceTests: XCTestCase {
    /// The repository (this file is Tests/IntegrationTests/ServiceTests.swift).
    static let repository = Repository.root

    private var cleanups: [() -> Void] = []

    override func tearDown() {
        for cleanup in cleanups.reversed() { cleanup() }
        cleanups.removeAll()
        super.tearDown()
    }

    func temporaryFolder(_ name: String) throws -> URL {
        let url = TestRunDirectory.url.appendingPathComponent("\(name)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        cleanups.append { try? FileManager.default.removeItem(at: url) }
        return url
    }

    /// `make TARGET VARIABLES…` in the repository, with the XDG folders of `home` (so a non-root
    /// install lands there too, never in the real ~/.config).
    func make(_ target: String, _ variables: [String], home: URL) throws -> CommandResult {
        try Shell.run("make", ["--no-print-directory", "-C", Self.repository.path, target] + variables, environment: [
            "HOME": home.path,
            "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
            "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
            "MAKEFLAGS": nil, "MAKELEVEL": nil,
        ], timeout: 60)
    }

    /// The files make install wrote, from its manifest ("file PATH" lines).
    func installedFiles(prefix: URL) throws -> [String] {
        let manifest = try String(contentsOf: prefix.appendingPathComponent("share/aubade/install-manifest"), encoding: .utf8)
        return manifest.split(separator: "\n").compactMap { line in
            line.hasPrefix("file ") ? String(line.dropFirst(5)) : nil
        }
    }

    // MARK: (a) install, activation, uninstall

    func testMakeInstallThenDBusActivationStartsTheDaemonAndUninstallLeavesNothing() throws {
        try AudioSession.require()
        for tool in ["make", "dbus-daemon", "dbus-send", "playerctl"] {
            _ = try Shell.which(tool)
        }
        let binary = try Daemon.binaryPath()
        let root = try temporaryFolder("install")
        let prefix = root.appendingPathComponent("prefix")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)

        // Install the test build (BINARY=: no release build inside a test).
        let install = try make("install", ["PREFIX=\(prefix.path)", "BINARY=\(binary)"], home: home)
        XCTAssertTrue(install.succeeded, "make install: \(install)")
        XCTAssertTrue(install.stdout.contains("systemctl --user daemon-reload && systemctl --user enable --now aubade"),
                      "make install does not say the next step: \(install.stdout)")
        let files = try installedFiles(prefix: prefix)
        let installedBinary = prefix.appendingPathComponent("bin/aubade").path
        XCTAssertTrue(files.contains(installedBinary), "\(files)")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: installedBinary))
        // The FFmpeg helper beside it, where the installed aubade finds it: an M4A decodes.
        let installedHelper = prefix.appendingPathComponent("bin/aubade-ffmpeg").path
        XCTAssertTrue(files.contains(installedHelper), "\(files)")
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: installedHelper))
        let m4a = root.appendingPathComponent("tone.m4a").path
        try Fixtures.makeM4A(at: m4a, seconds: 1)
        let decoded = try Shell.run(installedBinary, ["decode", m4a], environment: ["AUBADE_FFMPEG_HELPER": nil])
        XCTAssertTrue(decoded.succeeded && decoded.stderr.contains("M4A, 44100 Hz, 2 channels, 1.000 s"),
                      "the installed aubade did not decode an M4A with the installed helper: \(decoded.stderr)")
        let unit = try XCTUnwrap(files.first { $0.hasSuffix("/systemd/user/aubade.service") }, "\(files)")
        let activation = try XCTUnwrap(files.first { $0.hasSuffix("/dbus-1/services/org.mpris.MediaPlayer2.aubade.service") },
                                       "\(files)")
        let unitText = try String(contentsOfFile: unit, encoding: .utf8)
        let activationText = try String(contentsOfFile: activation, encoding: .utf8)
        XCTAssertTrue(unitText.contains("\nExecStart=\(installedBinary) serve\n"), unitText)
        XCTAssertTrue(activationText.contains("\nExec=\(installedBinary) serve\n"), activationText)
        XCTAssertTrue(activationText.contains("\nSystemdService=aubade.service\n"), activationText)
        XCTAssertFalse(unitText.contains("@bindir@") || activationText.contains("@bindir@"))
        let guardUnit = try XCTUnwrap(files.first { $0.hasSuffix("/systemd/user/aubade-guard.service") }, "\(files)")
        XCTAssertTrue(try String(contentsOfFile: guardUnit, encoding: .utf8).contains("\nExecStart=\(installedBinary) guard\n"))

        // A second session bus whose only service folder is the installed one. What it activates
        // runs with the test's HOME and XDG folders (no state of a real user) and our sound server.
        let bus = try ActivationBus(serviceDirectory: URL(fileURLWithPath: activation).deletingLastPathComponent(),
                                    environment: [
                                        "HOME": home.path,
                                        "XDG_CONFIG_HOME": home.appendingPathComponent(".config").path,
                                        "XDG_CACHE_HOME": home.appendingPathComponent(".cache").path,
                                        "XDG_DATA_HOME": home.appendingPathComponent(".local/share").path,
                                        "XDG_STATE_HOME": home.appendingPathComponent(".local/state").path,
                                    ])
        var activatedPID: Int32 = 0
        cleanups.append {
            // The daemon first (by the PID the bus gave), then the bus; both by PID.
            if activatedPID > 0 { stopForeignProcess(activatedPID) }
            bus.stop()
        }
        XCTAssertFalse(try bus.nameHasOwner(Daemon.busName), "nothing should own the name before activation")
        let activatable = try bus.busCall("ListActivatableNames", [])
        XCTAssertTrue(activatable.values.first?.strings?.contains(Daemon.busName) ?? false,
                      "the bus does not list \(Daemon.busName) as activatable: \(activatable); bus stderr: \(bus.stderr)")

        // The first method call to the name starts the daemon (dbus-send asks the bus to
        // auto-start). playerctl 2.4 does not activate: it lists the names already owned
        // (ListNames) and finds no player until something has started Aubade.
        let activated = try bus.call("org.freedesktop.DBus.Properties.Get",
                                      ["string:org.mpris.MediaPlayer2.Player", "string:PlaybackStatus"],
                                      destination: Daemon.busName)
        XCTAssertTrue(activated.succeeded, "activated by a call failed: \(activated); bus stderr: \(bus.stderr)")
        XCTAssertEqual(activated.values.first?.string, "Stopped")
        // Then playerctl finds it, as a user would.
        let status = try Shell.run("playerctl", ["-p", "aubade", "status"], environment: bus.clientEnvironment, timeout: 30)
        XCTAssertTrue(status.succeeded, "playerctl -p aubade status: \(status); bus stderr: \(bus.stderr)")
        XCTAssertEqual(status.trimmedOutput, "Stopped")

        // The daemon the bus started is the installed binary.
        XCTAssertTrue(try bus.nameHasOwner(Daemon.busName))
        activatedPID = try bus.processID(of: Daemon.busName)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(activatedPID)/exe")
        XCTAssertEqual(executable, installedBinary)
        let identity = try bus.call("org.freedesktop.DBus.Properties.Get",
                                    ["string:org.mpris.MediaPlayer2", "string:Identity"], destination: Daemon.busName)
        XCTAssertTrue(identity.succeeded, "\(identity)")

        // Stopped by PID: SIGTERM ends it cleanly and releases the name.
        XCTAssertTrue(stopForeignProcess(activatedPID), "the activated aubade (pid \(activatedPID)) did not stop")
        activatedPID = 0
        let deadline = Date(timeIntervalSinceNow: 5)
        while try bus.nameHasOwner(Daemon.busName), Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        XCTAssertFalse(try bus.nameHasOwner(Daemon.busName))

        // make uninstall removes exactly what make install put there: the prefix is gone again,
        // and nothing went into the home (the test's XDG folders) for a root install.
        let uninstall = try make("uninstall", ["PREFIX=\(prefix.path)"], home: home)
        XCTAssertTrue(uninstall.succeeded, "make uninstall: \(uninstall)")
        for file in files {
            XCTAssertFalse(FileManager.default.fileExists(atPath: file), "\(file) left behind")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix.path),
                       "\(prefix.path) left behind: \((try? FileManager.default.subpathsOfDirectory(atPath: prefix.path)) ?? [])")
        let again = try make("uninstall", ["PREFIX=\(prefix.path)"], home: home)
        XCTAssertFalse(again.succeeded, "a second make uninstall should say nothing is installed: \(again)")
    }

    /// GNOME Shell and KDE Plasma show a player's name and icon from the desktop entry its
    /// DesktopEntry names: make install puts `aubade.desktop` (valid, hidden from menus, starting
    /// the service) into applications/ and its icon into the hicolor theme; uninstall removes both.
    func testMakeInstallInstallsTheDesktopEntryAndItsIcon() throws {
        let binary = try Daemon.binaryPath()
        let root = try temporaryFolder("install-desktop")
        let prefix = root.appendingPathComponent("prefix")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        XCTAssertTrue(try make("install", ["PREFIX=\(prefix.path)", "BINARY=\(binary)"], home: home).succeeded)
        let files = try installedFiles(prefix: prefix)
        let entry = prefix.appendingPathComponent("share/applications/aubade.desktop").path
        let icon = prefix.appendingPathComponent("share/icons/hicolor/scalable/apps/aubade.svg").path
        XCTAssertTrue(files.contains(entry) && files.contains(icon), "\(files)")
        let text = try String(contentsOfFile: entry, encoding: .utf8)
        let installedBinary = prefix.appendingPathComponent("bin/aubade").path
        for line in ["[Desktop Entry]", "Type=Application", "Name=Aubade", "Icon=aubade", "NoDisplay=true",
                     "Exec=\(installedBinary) serve %U", "TryExec=\(installedBinary)"] {
            XCTAssertTrue(text.split(separator: "\n").contains(Substring(line)), "\(line) missing from:\n\(text)")
        }
        XCTAssertFalse(text.contains("@bindir@"))
        let validate = try Shell.run("desktop-file-validate", [entry])
        XCTAssertTrue(validate.succeeded && validate.stdout.isEmpty, "desktop-file-validate: \(validate)")
        XCTAssertTrue(try String(contentsOfFile: icon, encoding: .utf8).hasPrefix("<svg"))

        XCTAssertTrue(try make("uninstall", ["PREFIX=\(prefix.path)"], home: home).succeeded)
        XCTAssertFalse(FileManager.default.fileExists(atPath: entry))
        XCTAssertFalse(FileManager.default.fileExists(atPath: icon))
    }

    func testUninstallKeepsFoldersThatHoldOtherFiles() throws {
        let binary = try Daemon.binaryPath()
        let root = try temporaryFolder("install-shared")
        let prefix = root.appendingPathComponent("prefix")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        XCTAssertTrue(try make("install", ["PREFIX=\(prefix.path)", "BINARY=\(binary)"], home: home).succeeded)
        // Another program installs into the same bin folder meanwhile.
        let other = prefix.appendingPathComponent("bin/other-tool")
        try "#!/bin/sh\n".write(to: other, atomically: true, encoding: .utf8)

        let uninstall = try make("uninstall", ["PREFIX=\(prefix.path)"], home: home)
        XCTAssertTrue(uninstall.succeeded, "\(uninstall)")
        XCTAssertTrue(FileManager.default.fileExists(atPath: other.path), "make uninstall removed a file it did not install")
        XCTAssertFalse(FileManager.default.fileExists(atPath: prefix.appendingPathComponent("bin/aubade").path))
        XCTAssertEqual(try FileManager.default.subpathsOfDirectory(atPath: prefix.path).sorted(), ["bin", "bin/other-tool"])
    }

    func testDestdirStagesFilesThatNameTheFinalPaths() throws {
        let binary = try Daemon.binaryPath()
        let root = try temporaryFolder("install-destdir")
        let stage = root.appendingPathComponent("stage")
        let home = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let install = try make("install", ["DESTDIR=\(stage.path)", "PREFIX=/usr", "BINARY=\(binary)",
                                           "USER_UNIT_DIR=/usr/lib/systemd/user",
                                           "DBUS_SERVICES_DIR=/usr/share/dbus-1/services"], home: home)
        XCTAssertTrue(install.succeeded, "\(install)")
        let unit = try String(contentsOf: stage.appendingPathComponent("usr/lib/systemd/user/aubade.service"), encoding: .utf8)
        XCTAssertTrue(unit.contains("\nExecStart=/usr/bin/aubade serve\n"), unit)
        let activation = try String(contentsOf: stage.appendingPathComponent("usr/share/dbus-1/services/org.mpris.MediaPlayer2.aubade.service"),
                                    encoding: .utf8)
        XCTAssertTrue(activation.contains("\nExec=/usr/bin/aubade serve\n"), activation)
        XCTAssertTrue(FileManager.default.isExecutableFile(atPath: stage.appendingPathComponent("usr/bin/aubade").path))

        let uninstall = try make("uninstall", ["DESTDIR=\(stage.path)", "PREFIX=/usr",
                                               "USER_UNIT_DIR=/usr/lib/systemd/user",
                                               "DBUS_SERVICES_DIR=/usr/share/dbus-1/services"], home: home)
        XCTAssertTrue(uninstall.succeeded, "\(uninstall)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: stage.appendingPathComponent("usr").path),
                       "\((try? FileManager.default.subpathsOfDirectory(atPath: stage.path)) ?? [])")
    }

    // MARK: (b) the systemd unit

    func testTheUnitPassesSystemdAnalyzeVerify() throws {
        try verifyUnit("aubade.service")
    }

    func testTheGuardUnitPassesSystemdAnalyzeVerify() throws {
        try verifyUnit("aubade-guard.service")
    }

    private func verifyUnit(_ name: String) throws {
        guard let analyze = try? Shell.which("systemd-analyze") else {
            throw XCTSkip("systemd-analyze not installed (the systemd package; scripts/install-deps installs it)")
        }
        // The unit as make install writes it, ExecStart= naming the binary under test (verify
        // checks that it exists and is executable).
        let bindir = URL(fileURLWithPath: try Daemon.binaryPath()).deletingLastPathComponent().path
        let template = try String(contentsOf: Self.repository.appendingPathComponent("systemd/\(name)"), encoding: .utf8)
        let folder = try temporaryFolder("unit")
        let unit = folder.appendingPathComponent(name)
        try template.replacingOccurrences(of: "@bindir@", with: bindir).write(to: unit, atomically: true, encoding: .utf8)
        // The user manager's verify wants an XDG_RUNTIME_DIR of its own.
        let runtime = folder.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])

        for mode in [["--user"], []] {
            let result = try Shell.run(analyze, mode + ["verify", unit.path],
                                       environment: ["XDG_RUNTIME_DIR": runtime.path, "SYSTEMD_LOG_LEVEL": "notice"],
                                       timeout: 60)
            let what = "systemd-analyze \((mode + ["verify"]).joined(separator: " "))"
            XCTAssertTrue(result.succeeded, "\(what): \(result)")
            // verify exits 0 even when it ignores a line it cannot parse: any remark about our
            // file (FILE:LINE: …) is a failure.
            let remarks = (result.stdout + result.stderr).split(separator: "\n").filter { $0.contains(name) }
            XCTAssertEqual(remarks, [], "\(what) has remarks about the unit")
        }
    }

    func testTheUnitHasTheKeysTheServiceNeeds() throws {
        let unit = try String(contentsOf: Self.repository.appendingPathComponent("systemd/aubade.service"), encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for line in ["Type=dbus", "BusName=org.mpris.MediaPlayer2.aubade", "ExecStart=@bindir@/aubade serve",
                     "ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure", "WantedBy=default.target"] {
            XCTAssertTrue(lines.contains(line), "systemd/aubade.service lacks \(line)")
        }
        // The sandbox lets the service do what it is for: internet stations need IP sockets (it
        // allowed AF_UNIX only, and the installed service reached no station), and the
        // Snapcast output writes into snapserver's pipe in the real /tmp.
        let families = lines.first { $0.hasPrefix("RestrictAddressFamilies=") }?.split(separator: "=")[1].split(separator: " ") ?? []
        XCTAssertTrue(["AF_UNIX", "AF_INET", "AF_INET6"].allSatisfy { families.contains(Substring($0)) }, "\(families)")
        XCTAssertFalse(lines.contains("PrivateTmp=yes"), "a private /tmp hides snapserver's /tmp/snapfifo")
        let activation = try String(contentsOf: Self.repository.appendingPathComponent("dbus/org.mpris.MediaPlayer2.aubade.service"),
                                    encoding: .utf8)
        let activationLines = Set(activation.split(separator: "\n").map(String.init))
        for line in ["[D-BUS Service]", "Name=org.mpris.MediaPlayer2.aubade", "Exec=@bindir@/aubade serve",
                     "SystemdService=aubade.service"] {
            XCTAssertTrue(activationLines.contains(line), "dbus/org.mpris.MediaPlayer2.aubade.service lacks \(line)")
        }
    }

    func testTheGuardUnitHasTheKeysTheGuardNeeds() throws {
        let unit = try String(contentsOf: Self.repository.appendingPathComponent("systemd/aubade-guard.service"), encoding: .utf8)
        let lines = Set(unit.split(separator: "\n").map(String.init))
        for line in ["Type=exec", "ExecStart=@bindir@/aubade guard",
                     "ExecReload=/bin/kill -HUP $MAINPID", "Restart=on-failure", "WantedBy=default.target"] {
            XCTAssertTrue(lines.contains(line), "systemd/aubade-guard.service lacks \(line)")
        }
    }
}

// MARK: (c) the configuration file through the real binary

/// `aubade serve` reads $XDG_CONFIG_HOME/aubade/aubade.conf, refuses a broken one naming file,
/// line and key, and lets flags override it.
final class ConfigurationFileTests: AubadeTestCase {
    /// Starts `aubade serve` in `home` and expects it to exit non-zero with `texts` on stderr.
    func assertRefusesToStart(home: URL, _ arguments: [String] = [], status expected: Int32? = nil,
                              mentioning texts: [String], line: UInt = #line) throws {
        let daemon = try startDaemon(arguments, waitingFor: nil, home: home)
        guard let status = daemon.waitForExit(timeout: 10) else {
            XCTFail("aubade serve started despite the broken configuration; stderr:\n\(daemon.stderrLines.joined(separator: "\n"))",
                    line: line)
            return
        }
        XCTAssertNotEqual(status, 0, line: line)
        if let expected { XCTAssertEqual(status, expected, line: line) }
        let stderr = daemon.stderrLines.joined(separator: "\n")
        for text in texts {
            XCTAssertTrue(stderr.contains(text), "stderr lacks \(text.debugDescription):\n\(stderr)", line: line)
        }
        XCTAssertFalse(try Bus.nameHasOwner(Daemon.busName), "a refused start must not own the name", line: line)
    }

    func testAnUnknownKeyStopsTheStartNamingFileLineAndKey() throws {
        let (home, file) = try home(withConfiguration: """
            # my settings
            volume = 0.5
            volme = 0.6
            """)
        try assertRefusesToStart(home: home, mentioning: ["\(file):3:", "unknown key \"volme\""])
    }

    func testABadValueStopsTheStartNamingFileLineAndKey() throws {
        let (home, file) = try home(withConfiguration: "log-level = info\n\npause-on-route-loss = sometimes\n")
        try assertRefusesToStart(home: home, mentioning: ["\(file):3:", "\"pause-on-route-loss\"", "sometimes"])
    }

    func testABadFlagIsAUsageError() throws {
        let (home, _) = try home(withConfiguration: "")
        try assertRefusesToStart(home: home, ["--volume", "7"], status: 64, mentioning: ["--volume"])
    }

    func testAFlagOverridesTheFilesVolume() throws {
        let (home, _) = try home(withConfiguration: "volume = 0.3\n")
        let first = try startDaemon([], home: home)
        try eventually("Volume 0.3 from aubade.conf") { try Bus.get(Bus.playerInterface, "Volume").double == 0.3 }
        first.stop()

        try startDaemon(["--volume", "0.6"], home: home)
        try eventually("Volume 0.6 from --volume over the file's 0.3") {
            try Bus.get(Bus.playerInterface, "Volume").double == 0.6
        }
    }
}

extension AubadeTestCase {
    /// A fresh home with `text` as its aubade.conf; returns the home and the file's path.
    func home(withConfiguration text: String) throws -> (home: URL, file: String) {
        let home = TestRunDirectory.url.appendingPathComponent("home-config-\(UUID().uuidString)", isDirectory: true)
        let folder = home.appendingPathComponent(".config/aubade", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("aubade.conf")
        try text.write(to: file, atomically: true, encoding: .utf8)
        addTeardownBlock { try? FileManager.default.removeItem(at: home) }
        return (home, file.path)
    }
}

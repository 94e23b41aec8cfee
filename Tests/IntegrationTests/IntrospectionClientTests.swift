import Foundation
import XCTest
@testable import TestSupport

/// What desktop shells, d-feet and people at a terminal see when they look: `gdbus introspect
/// --recurse` and `busctl tree`/`introspect`, the real programs, walking Aubade from `/`. Every
/// object, interface, method, signal and property of `dbus/` is there, on the object it belongs
/// to, and every property is readable in its declared type.
final class IntrospectionClientTests: AubadeTestCase {
    /// The interfaces each object carries (besides the standard ones), as `dbus/` declares them.
    private static let objects: [String: [String]] = [
        "/org/mpris/MediaPlayer2": ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player",
                                    "org.mpris.MediaPlayer2.TrackList", "org.mpris.MediaPlayer2.Playlists"],
        "/org/aubade/Player": ["org.aubade.AudioSession1", "org.aubade.Queue1"],
    ]
    private static let standard = ["org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer",
                                   "org.freedesktop.DBus.Properties"]

    /// `gdbus introspect --recurse` from `/` (as GNOME's tools do): every object and its
    /// interfaces, with each property's current value.
    func testGdbusFindsEveryObjectAndInterface() throws {
        try startPlaying([fixtures.alpha, fixtures.long])
        let result = try Shell.run("gdbus", ["introspect", "--session", "--dest", Daemon.busName, "--object-path", "/",
                                             "--recurse"])
        XCTAssertTrue(result.succeeded, "\(result)")
        let tree = GdbusIntrospection(result.stdout)
        for (path, interfaces) in Self.objects {
            XCTAssertEqual(Set(tree.interfaces[path] ?? []), Set(interfaces + Self.standard), "interfaces of \(path)")
        }
        // The guard's object: its interface and Introspectable (dbus/org.aubade.Guard1.xml).
        XCTAssertEqual(tree.interfaces["/org/aubade/Guard"].map(Set.init), ["org.aubade.Guard1", "org.freedesktop.DBus.Introspectable"])
        // The members of each interface are those of its file in dbus/.
        for (interface, file) in [("org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.xml"),
                                  ("org.aubade.AudioSession1", "org.aubade.AudioSession1.xml"),
                                  ("org.aubade.Queue1", "org.aubade.Queue1.xml")] {
            let declared = try DeclaredMembers(file: file, interface: interface)
            XCTAssertEqual(tree.members[interface].map(Set.init), declared.all, "members of \(interface)")
        }
        // Properties are read with their values (gdbus calls GetAll on each interface).
        XCTAssertTrue(result.stdout.contains("readonly s PlaybackStatus = 'Playing';"), result.stdout)
        XCTAssertTrue(result.stdout.contains("readonly s Identity = 'Aubade';"), result.stdout)
        XCTAssertTrue(result.stdout.contains("readwrite s Category = 'playback';"), result.stdout)
    }

    /// `busctl --user tree` and `busctl introspect` (systemd's client): the same objects, and
    /// every property with a value of its declared signature.
    func testBusctlFindsEveryObjectAndReadsEveryProperty() throws {
        try startPlaying([fixtures.alpha, fixtures.long])
        let tree = try Shell.run("busctl", ["--user", "tree", "--list", Daemon.busName])
        XCTAssertTrue(tree.succeeded, "\(tree)")
        let paths = Set(tree.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        XCTAssertTrue(paths.isSuperset(of: ["/", "/org", "/org/mpris", "/org/mpris/MediaPlayer2", "/org/aubade",
                                            "/org/aubade/Player", "/org/aubade/Guard"]), "busctl tree: \(paths.sorted())")
        for (path, interfaces) in Self.objects {
            let introspect = try Shell.run("busctl", ["--user", "introspect", Daemon.busName, path])
            XCTAssertTrue(introspect.succeeded, "\(introspect)")
            let rows = BusctlRows(introspect.stdout)
            XCTAssertEqual(Set(rows.interfaces), Set(interfaces + Self.standard), "busctl introspect \(path)")
            for row in rows.properties {
                // busctl prints "-" where it could not read a value (and for every structure,
                // which it does not print: those are read one by one below).
                if row.signature.contains("(") {
                    let interface = try XCTUnwrap(rows.interface(of: row.name))
                    let value = try Shell.run("busctl", ["--user", "get-property", Daemon.busName, path, interface,
                                                         String(row.name.dropFirst())])
                    XCTAssertTrue(value.succeeded && value.stdout.hasPrefix(row.signature + " "), "\(row.name): \(value)")
                } else {
                    XCTAssertNotEqual(row.value, "-", "\(path) \(row.name) was not readable")
                }
            }
        }
        let player = BusctlRows(try Shell.run("busctl", ["--user", "introspect", Daemon.busName, "/org/mpris/MediaPlayer2",
                                                          "org.mpris.MediaPlayer2.Player"]).stdout)
        XCTAssertEqual(player.properties.first { $0.name == ".Metadata" }?.signature, "a{sv}")
        XCTAssertEqual(player.properties.first { $0.name == ".Position" }?.signature, "x")
        XCTAssertEqual(player.properties.first { $0.name == ".PlaybackStatus" }?.value, "\"Playing\"")
    }
}

/// `gdbus introspect --recurse` output: each object's interfaces and each interface's members.
struct GdbusIntrospection {
    var interfaces: [String: [String]] = [:]
    var members: [String: [String]] = [:]

    init(_ text: String) {
        var path: [String] = []
        var interface: String?
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("node ") {
                let node = String(line.dropFirst(5).dropLast(2))
                path.append(node)
                interfaces[node, default: []] += []
            } else if line.hasPrefix("interface ") {
                let name = String(line.dropFirst(10).dropLast(2))
                interfaces[path.last ?? "/", default: []].append(name)
                interface = name
                members[name] = members[name] ?? []
            } else if line == "};" {
                if interface != nil { interface = nil } else { _ = path.popLast() }
            } else if let interface, !line.hasPrefix("@"), !line.hasSuffix(":") {
                // "readonly s PlaybackStatus = …;" / "Next();" / "Seek(in  x Offset);" /
                // "SetPosition(in  o TrackId," (its next line continues the arguments)
                let words = line.split(separator: " ")
                if words.count >= 3, ["readonly", "readwrite", "writeonly"].contains(String(words[0])) {
                    members[interface, default: []].append(String(words[2]))
                } else if let open = line.firstIndex(of: "("), !line[..<open].contains(" ") {
                    members[interface, default: []].append(String(line[..<open]))
                }
            }
        }
    }
}

/// The methods, signals and properties an interface declares in its file in `dbus/`.
struct DeclaredMembers {
    var all: Set<String>

    init(file: String, interface: String) throws {
        let root = Repository.root
        let xml = try String(contentsOf: root.appendingPathComponent("dbus/\(file)"), encoding: .utf8)
        guard let start = xml.range(of: "<interface name=\"\(interface)\">"),
              let end = xml[start.upperBound...].range(of: "</interface>") else {
            throw DaemonError("\(interface) is not in dbus/\(file)")
        }
        let body = xml[start.upperBound..<end.lowerBound]
        all = Set(body.matches(of: /<(?:method|signal|property) name="([^"]+)"/).map { String($0.output.1) })
    }
}

/// `busctl introspect` rows: NAME TYPE SIGNATURE RESULT/VALUE FLAGS.
struct BusctlRows {
    struct Row { var name: String; var type: String; var signature: String; var value: String }
    var rows: [Row] = []

    init(_ text: String) {
        for line in text.split(separator: "\n").dropFirst() {
            let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard words.count >= 4 else { continue }
            rows.append(Row(name: words[0], type: words[1], signature: words[2], value: words[3]))
        }
    }

    var interfaces: [String] { rows.filter { $0.type == "interface" }.map(\.name) }

    /// The interface a member row (".Name") belongs to: the interface row above it.
    func interface(of member: String) -> String? {
        guard let index = rows.firstIndex(where: { $0.name == member }) else { return nil }
        return rows[..<index].last { $0.type == "interface" }?.name
    }
    var properties: [Row] { rows.filter { $0.type == "property" } }
}

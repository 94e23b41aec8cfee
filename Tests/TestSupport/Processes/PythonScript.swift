import Foundation

/// The tests' Python helpers: .py files in Tests/TestSupport/Scripts, copied as resources,
/// run by the system python — the first python3 on PATH (pyenv's shim) may lack Debian's
/// modules (python3-dbus, python3-gi, python3-fusepy, python3-mutagen).
enum PythonScript {
    static let interpreter = FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") ? "/usr/bin/python3" : "python3"

    /// The path of Scripts/NAME.py.
    static func path(_ name: String) throws -> String {
        guard let path = Bundle.module.path(forResource: name, ofType: "py", inDirectory: "Scripts") else {
            throw DaemonError("\(name).py is missing from TestSupport's resources (Tests/TestSupport/Scripts)")
        }
        return path
    }

    /// The interpreter's arguments that run Scripts/NAME.py with `arguments`.
    static func arguments(_ name: String, _ arguments: [String]) throws -> [String] {
        [try path(name)] + arguments
    }
}

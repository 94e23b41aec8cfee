import Foundation

/// What /proc says about a process: open descriptors and resident memory.
enum ProcessFacts {
    /// The number of open file descriptors (entries of /proc/PID/fd).
    static func openDescriptors(of pid: Int32) throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count
    }

    /// What the open descriptors are (the targets of /proc/PID/fd/N), for a failure message.
    static func descriptorTargets(of pid: Int32) -> [String] {
        let folder = "/proc/\(pid)/fd"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.sorted { (Int($0) ?? 0) < (Int($1) ?? 0) }.map { name in
            "\(name) → " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(name)")) ?? "?")
        }
    }

    /// VmRSS in KiB (/proc/PID/status).
    static func residentKilobytes(of pid: Int32) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") else {
            throw DaemonError("no VmRSS in /proc/\(pid)/status")
        }
        return kilobytes
    }
}

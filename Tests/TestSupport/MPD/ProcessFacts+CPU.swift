import Foundation

extension ProcessFacts {
    /// The CPU time a process has used, user and system, in seconds (/proc/PID/stat).
    static func cpuSeconds(of pid: Int32) throws -> Double {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // After "(comm)": state is field 3; utime and stime are fields 14 and 15.
        guard let close = stat.lastIndex(of: ")") else { throw DaemonError("no comm in /proc/\(pid)/stat") }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else {
            throw DaemonError("no utime/stime in /proc/\(pid)/stat")
        }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }
}

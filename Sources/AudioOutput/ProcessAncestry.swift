import Glibc
public import PlayerCore

/// The parents of a process, read from `/proc/<pid>/stat`: a browser's or an Electron app's
/// sound comes from a child of the process that owns its MPRIS name.
///
/// procfs is kernel memory, not a disk: a read never waits on a device. The app runs it on a
/// queue of its own anyway (never on the core queue, never under the mainloop lock).
public enum ProcessAncestry {
    /// At most this many parents: a chain is never longer in practice, and a loop (a pid reused
    /// while we read) cannot run on.
    static let maximumDepth = 16

    /// The parents of `pid`, nearest first, up to (not including) pid 1; empty when unknown.
    public static func parents(of pid: Int32) -> [Int32] {
        var chain: [Int32] = []
        var current = pid
        while chain.count < maximumDepth, let parent = parent(of: current), parent > 1, !chain.contains(parent), parent != pid {
            chain.append(parent)
            current = parent
        }
        return chain
    }

    /// The facts with every other stream's parents filled in (each pid read once).
    public static func filling(_ facts: SoundServerFacts) -> SoundServerFacts {
        var facts = facts
        var known: [Int32: [Int32]] = [:]
        for index in facts.otherStreams.indices {
            guard let pid = facts.otherStreams[index].processID else { continue }
            if known[pid] == nil { known[pid] = parents(of: pid) }
            facts.otherStreams[index].ancestors = known[pid] ?? []
        }
        return facts
    }

    /// Field 4 of /proc/<pid>/stat. The command name (field 2) is in parentheses and may hold
    /// spaces and parentheses itself, so the fields are counted after its *last* ")".
    public static func parent(of pid: Int32) -> Int32? {
        guard pid > 0 else { return nil }
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        return parent(inStat: buffer[..<count])
    }

    public static func parent(inStat bytes: ArraySlice<UInt8>) -> Int32? {
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")) else { return nil }
        let fields = bytes[(close + 1)...].split(separator: UInt8(ascii: " "))
        // After ")": state, ppid, …
        guard fields.count >= 2, let text = String(validating: fields[1], as: UTF8.self) else { return nil }
        return Int32(text)
    }
}

import Foundation

/// TCP connections on loopback as /proc/net/tcp shows them: which process holds which end.
/// How a test knows a client program is really connected — accepted by the server, not only
/// waiting in its listen backlog — when the client prints nothing to say so.
enum LoopbackConnections {
    /// Whether the client process's TCP connection to 127.0.0.1:`port` is established and its
    /// server end is a descriptor of the server process (accepted, not waiting in the backlog):
    /// /proc/net/tcp's rows and the processes' socket inodes.
    static func accepted(by server: Int32, port: Int, client: Int32) throws -> Bool {
        // Read to the end: String(contentsOfFile:) stops at the first read of a /proc file (4 KiB).
        guard let table = FileHandle(forReadingAtPath: "/proc/net/tcp") else { throw DaemonError("cannot open /proc/net/tcp") }
        defer { try? table.close() }
        let rows = String(decoding: table.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n").dropFirst()
            .map { $0.split(separator: " ").map(String.init) }.filter { $0.count > 9 && $0[3] == "01" }
        let hex = String(port, radix: 16, uppercase: true)
        let serverAddress = "0100007F:" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        let clientSockets = sockets(of: client), serverSockets = sockets(of: server)
        // The client's end: remote is the server's address; its local address names the server's end.
        let clientEnds = rows.filter { $0[2] == serverAddress && clientSockets.contains($0[9]) }.map { $0[1] }
        return rows.contains { $0[1] == serverAddress && clientEnds.contains($0[2]) && serverSockets.contains($0[9]) }
    }

    private static func sockets(of pid: Int32) -> Set<String> {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []
        return Set(descriptors.compactMap { descriptor -> String? in
            guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/fd/\(descriptor)"),
                  target.hasPrefix("socket:[") else { return nil }
            return String(target.dropFirst(8).dropLast())
        })
    }
}

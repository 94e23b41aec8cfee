import Foundation

/// The `aubade-ffmpeg` helpers a daemon runs, found in /proc (children of its pid).
enum HelperProcesses {
    /// Pids of the daemon's running `aubade-ffmpeg` children, oldest first.
    static func of(_ daemon: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let name = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            // Field 4 is the parent; a zombie (Z) is no longer running.
            return name == "aubade-ffmpeg" && fields.count > 2 && fields[1] == "\(daemon)" && fields[0] != "Z"
        }.sorted()
    }

    /// Whether libcurl (and so its TLS stack) is mapped into `pid`: only once a stream played.
    static func mapsCurl(_ pid: Int32) -> Bool {
        ((try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? "").contains("libcurl")
    }

    /// Whether any shared library of FFmpeg is mapped into `pid`.
    static func mapsFFmpeg(_ pid: Int32) -> Bool {
        let maps = (try? String(contentsOfFile: "/proc/\(pid)/maps", encoding: .utf8)) ?? ""
        return ["libavformat", "libavcodec", "libswresample", "libavutil"].contains { maps.contains($0) }
    }
}

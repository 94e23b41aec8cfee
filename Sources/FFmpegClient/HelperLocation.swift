#if canImport(Glibc)
import Glibc
#endif

/// Where `aubade-ffmpeg` is: beside the running `aubade` (where `make install` and the build
/// put it), or `AUBADE_FFMPEG_HELPER` (tests: a helper that is missing or another build).
public enum HelperLocation {
    public static let executableName = "aubade-ffmpeg"

    /// The helper's path, or why there is none, in words for the log and `aubade status`.
    public static func find() -> Result<String, HelperError> {
        let path: String
        if let configured = getenv("AUBADE_FFMPEG_HELPER").map({ String(cString: $0) }), !configured.isEmpty {
            path = configured
        } else {
            guard let own = ownExecutable() else { return .failure(.notInstalled("cannot read /proc/self/exe")) }
            let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            path = folder + "/" + executableName
        }
        guard access(path, X_OK) == 0 else {
            return .failure(.notInstalled("no \(executableName) at \(path)"))
        }
        return .success(path)
    }

    private static func ownExecutable() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

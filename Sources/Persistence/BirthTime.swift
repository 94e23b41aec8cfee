import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A file's birth time via `statx(2)`, which Swift's Glibc module does not import (it is a
/// `_GNU_SOURCE` declaration): looked up once with `dlsym`, with the kernel's `struct statx`
/// layout (stable ABI, `linux/stat.h`). `nil` when libc lacks `statx` or the file system
/// records no birth time.
enum BirthTime {
    private typealias StatX = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UInt32, UnsafeMutableRawPointer) -> Int32

    private static let statxFunction: StatX? = {
        guard let symbol = dlsym(nil, "statx") else { return nil }
        return unsafeBitCast(symbol, to: StatX.self)
    }()

    private static let requestBirthTime: UInt32 = 0x800      // STATX_BTIME
    private static let size = 256                            // sizeof(struct statx)
    private static let maskOffset = 0                        // __u32 stx_mask
    private static let birthTimeOffset = 80                  // struct statx_timestamp stx_btime

    /// Seconds and nanoseconds since the epoch.
    static func of(_ path: FilePath) -> (seconds: Int64, nanoseconds: UInt32)? {
        path.withCString { of(cPath: $0) }
    }

    private static func of(cPath path: UnsafePointer<CChar>) -> (seconds: Int64, nanoseconds: UInt32)? {
        guard let statx = statxFunction else { return nil }
        return withUnsafeTemporaryAllocation(byteCount: size, alignment: 8) { buffer in
            buffer.initializeMemory(as: UInt8.self, repeating: 0)
            guard let base = buffer.baseAddress,
                  statx(AT_FDCWD, path, 0, requestBirthTime, base) == 0,
                  base.load(fromByteOffset: maskOffset, as: UInt32.self) & requestBirthTime != 0 else { return nil }
            return (base.load(fromByteOffset: birthTimeOffset, as: Int64.self),
                    base.load(fromByteOffset: birthTimeOffset + 8, as: UInt32.self))
        }
    }
}

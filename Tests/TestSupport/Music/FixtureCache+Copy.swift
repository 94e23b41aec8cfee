import Foundation

/// `cp -a` of a cached fixture folder, done in this process: every test process copies one or
/// more folders, and a `cp` started from the test process (a fork of it, then the program)
/// cost about 10 ms of CPU each time, some 1,700 times a make test.
///
/// What the folders hold, kept as `cp -a` keeps it: folders, regular files (mode and times),
/// symbolic links (their text), FIFOs (made anew: FileManager would open one to read it and
/// wait for a writer forever). Names are bytes, as readdir gives them (FileManager skips names
/// that are not UTF-8). Anything else throws, and the caller copies with cp.
enum TreeCopy {
    struct Unsupported: Error {}

    static func copy(_ source: String, to destination: String) throws {
        try copyEntry(Array(source.utf8), to: Array(destination.utf8))
    }

    private static func copyEntry(_ source: [UInt8], to destination: [UInt8]) throws {
        var info = stat()
        try check(lstat(cPath(source), &info), "lstat", source)
        let mode = info.st_mode & 0o7777
        switch info.st_mode & 0o170000 {
        case 0o040000:
            try check(mkdir(cPath(destination), 0o700), "mkdir", destination)
            guard let folder = opendir(cPath(source)) else { throw failure("opendir", source) }
            defer { closedir(folder) }
            while let entry = readdir(folder) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
                if name == Array(".".utf8) || name == Array("..".utf8) { continue }
                try copyEntry(source + [UInt8(ascii: "/")] + name, to: destination + [UInt8(ascii: "/")] + name)
            }
            try check(chmod(cPath(destination), mode), "chmod", destination)
        case 0o100000:
            try copyContents(source, to: destination, mode: mode)
        case 0o120000:
            var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(cPath(source), &target, target.count - 1)
            guard length >= 0 else { throw failure("readlink", source) }
            try check(symlink(target, cPath(destination)), "symlink", destination)
            return  // a link's own times are of no use to anyone
        case 0o010000:
            try check(mkfifo(cPath(destination), mode), "mkfifo", destination)
        default:
            throw Unsupported()
        }
        let times = [info.st_atim, info.st_mtim]
        try check(utimensat(AT_FDCWD, cPath(destination), times, 0), "utimensat", destination)
    }

    private static func copyContents(_ source: [UInt8], to destination: [UInt8], mode: mode_t) throws {
        let input = open(cPath(source), O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw failure("open", source) }
        defer { close(input) }
        let output = open(cPath(destination), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode)
        guard output >= 0 else { throw failure("open", destination) }
        defer { close(output) }
        var buffer = [UInt8](repeating: 0, count: 1 << 17)
        while true {
            let count = read(input, &buffer, buffer.count)
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw failure("read", source) }
            if count == 0 { break }
            var written = 0
            while written < count {
                let done = buffer.withUnsafeBytes { write(output, $0.baseAddress! + written, count - written) }
                if done < 0, errno == EINTR { continue }
                guard done > 0 else { throw failure("write", destination) }
                written += done
            }
        }
        // The mode as it was, whatever the umask took from open's.
        try check(fchmod(output, mode), "fchmod", destination)
    }

    private static func cPath(_ bytes: [UInt8]) -> [CChar] {
        bytes.map { CChar(bitPattern: $0) } + [0]
    }

    private static func check(_ result: Int32, _ call: String, _ path: [UInt8]) throws {
        if result != 0 { throw failure(call, path) }
    }

    private static func failure(_ call: String, _ path: [UInt8]) -> DaemonError {
        let code = errno
        return DaemonError("\(call) \(String(decoding: path, as: UTF8.self)): errno \(code)")
    }
}

import Glibc

/// The page's token (docs/web.md): 128 random bits as 26 characters of base 32 (short enough for
/// a QR code a phone reads at a glance), kept in a file only its owner reads. Made at the first
/// need — the daemon serving beyond loopback, or `aubade web` — and the same ever after, so a
/// phone that has it stays let in.
public enum WebToken {
    /// The token in `file`, made (0600) when there is none. nil with the reason in words when
    /// the file cannot be read or written.
    public static func loadOrCreate(_ file: String) -> Result<String, TokenError> {
        if let existing = read(file) { return .success(existing) }
        guard let random = randomBytes(16) else {
            return .failure(TokenError(message: "no random bytes from /dev/urandom: \(String(cString: strerror(errno)))"))
        }
        let token = base32(random)
        let folder = String(file[..<(file.lastIndex(of: "/") ?? file.startIndex)])
        makeFolders(folder)
        // O_EXCL: of two starting at once, one writes and both read what it wrote. A file
        // that holds no token (emptied, edited) is replaced.
        var descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if descriptor < 0, errno == EEXIST {
            if let existing = read(file) { return .success(existing) }
            unlink(file)
            descriptor = open(file, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        }
        if descriptor < 0 {
            return .failure(TokenError(message: "cannot write \(file): \(String(cString: strerror(errno)))"))
        }
        let line = Array((token + "\n").utf8)
        let written = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        fsync(descriptor)
        close(descriptor)
        guard written == line.count else { return .failure(TokenError(message: "cannot write \(file)")) }
        return .success(token)
    }

    public struct TokenError: Error, Sendable, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// A token is 16 to 128 characters of letters and digits; anything else in the file is
    /// not one (and is made again).
    private static func read(_ file: String) -> String? {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[..<count], as: UTF8.self).trimmingTrailingNewlines
        guard (16...128).contains(text.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        return text
    }

    private static func randomBytes(_ count: Int) -> [UInt8]? {
        let descriptor = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
        return got == count ? bytes : nil
    }

    static func base32(_ bytes: [UInt8]) -> String {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz234567")
        var out = "", buffer = 0, bits = 0
        for byte in bytes {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }

    private static func makeFolders(_ folder: String) {
        var path = ""
        for part in folder.split(separator: "/") {
            path += "/" + part
            mkdir(path, 0o700)
        }
    }
}

private extension String {
    var trimmingTrailingNewlines: String {
        var text = self
        while text.last == "\n" || text.last == "\r" { text.removeLast() }
        return text
    }
}

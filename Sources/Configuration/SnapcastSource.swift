/// Where the Snapcast output writes: the `pipe://` source of a snapserver stream, written as in
/// snapserver.conf (`pipe:///tmp/snapfifo?name=Aubade&sampleformat=48000:16:2`), so the user
/// copies one line into both files. Only the path and `sampleformat` matter to Aubade; the
/// other parameters (name, codec, controlscript, mode, chunk_ms…) are the server's and are
/// ignored here.
///
/// Why a pipe and not `tcp://`: see docs/outputs.md (the unread audio in a pipe can be measured
/// and taken back, and the server's going away shows in the kernel at once).
public struct SnapcastSource: Sendable, Equatable {
    /// The FIFO's absolute path.
    public var path: String
    /// Frames per second of the stream (snapserver resamples nothing: Aubade converts).
    public var sampleRate: Int
    /// 1 (mono) or 2 (stereo).
    public var channels: Int

    public init(path: String, sampleRate: Int = 48_000, channels: Int = 2) {
        self.path = path
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// snapserver's own default source (`/tmp/snapfifo`, 48000:16:2).
    public static let serverDefault = SnapcastSource(path: "/tmp/snapfifo")

    public static let sampleRates: ClosedRange<Int> = 8_000...192_000

    /// Parses a `pipe://` URI; throws what was expected instead.
    static func parse(_ text: String) throws(ValueError) -> SnapcastSource {
        let expected = "a snapserver pipe source such as pipe:///tmp/snapfifo?sampleformat=48000:16:2"
        guard text.hasPrefix("pipe://") else {
            if text.contains("://") {
                throw ValueError(expected: "\(expected) (only pipe:// sources are supported, not \(text.prefix { $0 != ":" })://)")
            }
            throw ValueError(expected: expected)
        }
        let rest = text.dropFirst("pipe://".count)
        let path = String(rest.prefix { $0 != "?" })
        guard path.hasPrefix("/"), path.count > 1, !path.hasSuffix("/") else {
            throw ValueError(expected: "\(expected) (an absolute path to the FIFO after pipe://)")
        }
        var source = SnapcastSource(path: path)
        let query = rest.dropFirst(path.count).dropFirst()
        for parameter in query.split(separator: "&") {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, pair[0] == "sampleformat" else { continue }
            let fields = pair[1].split(separator: ":", omittingEmptySubsequences: false)
            guard fields.count == 3, let rate = Int(fields[0]), sampleRates.contains(rate), fields[1] == "16",
                  let channels = Int(fields[2]), (1...2).contains(channels) else {
                throw ValueError(expected: "sampleformat=RATE:16:CHANNELS with RATE 8000…192000 and 1 or 2 channels"
                                 + " (Aubade writes 16-bit samples), found sampleformat=\(pair[1])")
            }
            source.sampleRate = rate
            source.channels = channels
        }
        return source
    }

    /// As the configuration file writes it.
    public var uri: String { "pipe://\(path)?sampleformat=\(sampleRate):16:\(channels)" }
}

/// Which output `aubade serve` plays to.
public enum OutputKind: String, Sendable, CaseIterable {
    /// The local sound server (PulseAudio, or PipeWire's pulse layer).
    case pulseaudio
    /// A snapserver's pipe source: the rooms of a house (Snapcast).
    case snapcast
}

/// Where the snapserver's JSON-RPC control port is (`snapcast-control`): `HOST:PORT`, the host
/// an IPv4 address, an IPv6 one in brackets (`[::1]:1705`) or a name.
public struct SnapcastControlAddress: Sendable, Equatable {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// snapserver's own default: its TCP control port on this machine.
    public static let serverDefault = SnapcastControlAddress(host: "127.0.0.1", port: 1705)

    /// `HOST:PORT`, or none (nil).
    static func parse(_ text: String) throws(ValueError) -> SnapcastControlAddress? {
        let expected = "HOST:PORT, such as 127.0.0.1:1705 or [::1]:1705, or none"
        if ["none", "off"].contains(text.lowercased()) { return nil }
        guard let colon = text.lastIndex(of: ":") else { throw ValueError(expected: expected) }
        var host = String(text[..<colon])
        guard let port = Int(text[text.index(after: colon)...]), (1...65_535).contains(port) else {
            throw ValueError(expected: expected + " (a port from 1 to 65535)")
        }
        if host.hasPrefix("[") {
            guard host.hasSuffix("]"), host.count > 2 else { throw ValueError(expected: expected) }
            host = String(host.dropFirst().dropLast())
            guard host.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else { throw ValueError(expected: expected) }
        } else {
            let allowed = { (character: Character) in
                character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == ".")
            }
            guard !host.isEmpty, host.count <= 253, host.allSatisfy(allowed) else { throw ValueError(expected: expected) }
        }
        return SnapcastControlAddress(host: host, port: port)
    }

    /// As the configuration file writes it.
    public var text: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

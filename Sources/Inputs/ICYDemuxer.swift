/// Separates a SHOUTcast/Icecast response body into audio and metadata blocks.
///
/// With `Icy-MetaData: 1` the server inserts a block after every `metaint` bytes of audio: one
/// length byte (× 16 = the block's size, at most 4080), then that many bytes of text such as
/// `StreamTitle='Artist - Title';`. The body is hostile input like any other: the length byte
/// cannot make us hold more than 4080 bytes, and a metaint out of range is refused up front.
public struct ICYDemuxer: Sendable {
    /// What comes out, in stream order.
    public enum Piece: Equatable, Sendable {
        case audio(ArraySlice<UInt8>)
        /// A metadata block's bytes (NUL padding included); empty blocks are not reported.
        case metadata([UInt8])
    }

    /// Larger intervals are not seen in the wild (8192 and 16000 are usual); a server that
    /// announces more is broken or hostile.
    public static let maximumInterval = 1 << 20

    private let interval: Int
    private var audioLeft: Int
    private var metadataLeft = 0
    private var metadata: [UInt8] = []
    private var readingLength = false

    /// `interval` is the response's `icy-metaint`; `nil` (or 0) means the body is all audio.
    public init?(interval: Int?) {
        let interval = interval ?? 0
        guard (0...Self.maximumInterval).contains(interval) else { return nil }
        self.interval = interval
        audioLeft = interval
    }

    /// Parses the `icy-metaint` header value.
    public init?(header: String?) {
        guard let header else {
            self.init(interval: nil)
            return
        }
        let digits = header.trimmingASCIISpaces
        guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy(\.isASCIIDigit), let value = Int(digits) else { return nil }
        self.init(interval: value)
    }

    public var carriesMetadata: Bool { interval > 0 }

    /// Splits `bytes` (the next part of the body) into pieces, in order.
    public mutating func split(_ bytes: ArraySlice<UInt8>) -> [Piece] {
        guard interval > 0 else { return bytes.isEmpty ? [] : [.audio(bytes)] }
        var pieces: [Piece] = []
        var rest = bytes
        while !rest.isEmpty {
            if metadataLeft > 0 {
                let taken = rest.prefix(metadataLeft)
                metadata += taken
                metadataLeft -= taken.count
                rest = rest.dropFirst(taken.count)
                if metadataLeft == 0 {
                    pieces.append(.metadata(metadata))
                    metadata = []
                    audioLeft = interval
                }
            } else if readingLength {
                readingLength = false
                metadataLeft = Int(rest.first!) * 16
                rest = rest.dropFirst()
                if metadataLeft == 0 { audioLeft = interval }
                metadata.reserveCapacity(metadataLeft)
            } else {
                let taken = rest.prefix(audioLeft)
                pieces.append(.audio(taken))
                audioLeft -= taken.count
                rest = rest.dropFirst(taken.count)
                if audioLeft == 0 { readingLength = true }
            }
        }
        return pieces
    }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
    var trimmingASCIISpaces: String {
        let scalars = unicodeScalars.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
        return String(String.UnicodeScalarView(scalars))
    }
}

/// One message on the helper's socket: `u32 length` (little-endian, counting the kind byte and
/// the payload), `u8 kind`, then the payload.
public struct WireFrame: Sendable, Equatable {
    public var kind: WireKind
    public var payload: [UInt8]

    public init(_ kind: WireKind, _ payload: [UInt8] = []) {
        self.kind = kind
        self.payload = payload
    }

    public init(_ kind: WireKind, build: (inout WireWriter) -> Void) {
        var writer = WireWriter()
        build(&writer)
        self.init(kind, writer.bytes)
    }

    /// No frame is bigger: the largest is a cover (capped at 16 MiB) with its MIME type. A
    /// length above it means the peer is broken or hostile: the connection is dropped.
    public static let maximumLength = 16 * 1024 * 1024 + 4096
    public static let headerLength = 5

    /// The bytes on the wire.
    public var encoded: [UInt8] {
        let length = UInt32(payload.count + 1)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(payload.count + Self.headerLength)
        withUnsafeBytes(of: length.littleEndian) { bytes.append(contentsOf: $0) }
        bytes.append(kind.rawValue)
        bytes.append(contentsOf: payload)
        return bytes
    }

    /// A reader over the payload.
    public var reader: WireReader { WireReader(payload) }
}

/// Appends a payload's fields: integers little-endian, strings and byte runs with a u32 length.
public struct WireWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    public init() {}

    public mutating func u8(_ value: UInt8) { bytes.append(value) }
    public mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func i64(_ value: Int64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    public mutating func string(_ value: String) { data(Array(value.utf8)) }
    public mutating func data<Bytes: Collection>(_ value: Bytes) where Bytes.Element == UInt8 {
        u32(UInt32(clamping: value.count))
        bytes.append(contentsOf: value)
    }
    /// The rest of the payload, without a length (PCM, input bytes).
    public mutating func raw<Bytes: Sequence>(_ value: Bytes) where Bytes.Element == UInt8 { bytes.append(contentsOf: value) }
}

/// Reads a payload's fields; anything short or malformed throws `WireError.malformed`.
public struct WireReader: Sendable {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { offset == bytes.count }

    public mutating func u8() throws(WireError) -> UInt8 {
        guard offset < bytes.count else { throw .malformed("payload ends early") }
        defer { offset += 1 }
        return bytes[offset]
    }

    public mutating func u32() throws(WireError) -> UInt32 {
        let raw = try take(4)
        return raw.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    public mutating func u64() throws(WireError) -> UInt64 {
        let raw = try take(8)
        return raw.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
    }

    public mutating func i64() throws(WireError) -> Int64 { Int64(bitPattern: try u64()) }

    public mutating func data() throws(WireError) -> [UInt8] {
        let count = Int(try u32())
        return Array(try take(count))
    }

    public mutating func string() throws(WireError) -> String {
        String(decoding: try data(), as: UTF8.self)
    }

    /// Everything not read yet.
    public mutating func rest() -> ArraySlice<UInt8> {
        defer { offset = bytes.count }
        return bytes[offset...]
    }

    private mutating func take(_ count: Int) throws(WireError) -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw .malformed("payload ends early") }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }
}

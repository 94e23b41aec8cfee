/// Header fields in the order they came or were added. Names compare without regard to ASCII
/// case, as HTTP says; a repeated name keeps every value, and lookup gives the first.
public struct HTTPHeaders: Sendable, Equatable, Sequence {
    public private(set) var fields: [(name: String, value: String)]

    public init(_ fields: [(name: String, value: String)] = []) {
        self.fields = fields
    }

    public subscript(name: String) -> String? {
        fields.first { Self.sameName($0.name, name) }?.value
    }

    public mutating func add(_ name: String, _ value: String) {
        fields.append((name, value))
    }

    /// Replaces every field of that name with one.
    public mutating func set(_ name: String, _ value: String) {
        fields.removeAll { Self.sameName($0.name, name) }
        fields.append((name, value))
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }

    public static func == (left: HTTPHeaders, right: HTTPHeaders) -> Bool {
        left.fields.elementsEqual(right.fields) { $0.name == $1.name && $0.value == $1.value }
    }

    static func sameName(_ left: String, _ right: String) -> Bool {
        left.utf8.elementsEqual(right.utf8) { lowercase($0) == lowercase($1) }
    }

    private static func lowercase(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}

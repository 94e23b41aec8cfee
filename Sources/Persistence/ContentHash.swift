/// 128-bit FNV-1a of a byte string, as 32 lower-case hex digits: the cover cache's file name
/// for a picture. Not cryptographic, and need not be: the pictures are the user's own files
/// and 128 bits make an accidental collision negligible. Cheap and with no dependency.
enum ContentHash {
    private static let offsetBasis: UInt128 = 0x6c62272e07bb014262b821756295c58d
    private static let prime: UInt128 = 0x0000000001000000000000000000013B

    static func hex(of bytes: [UInt8]) -> String {
        var hash = offsetBasis
        for byte in bytes {
            hash ^= UInt128(byte)
            hash = hash &* prime
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 32 - digits.count) + digits
    }
}

/// C's `strtol`, `strtoul` and `strtof` in base 10, as glibc reads them, on UTF-8 bytes.
///
/// mpd parses every number with these, and their leniencies are part of what clients see:
/// leading white space and a `+` are accepted (`repeat " +1"` works), `strtoul("-1")` is the
/// largest unsigned long (`setvol -1` is "Number too large"), overflow pins to the limit. Written
/// out rather than called so that no locale and no C string conversion is involved.
enum CNumberScanner {
    /// What a scan found: the value as the C function returns it, and where the digits ended.
    struct Result<Value> {
        var value: Value
        /// Bytes consumed; 0 when no digit was found (C sets `endptr` back to the start).
        var end: Int
    }

    /// C's `isspace` in the "C" locale.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }

    /// Sign, magnitude (nil on overflow) and end of an integer at `start`, or nil if no digit.
    private static func scanMagnitude(_ bytes: [UInt8], from start: Int) -> (negative: Bool, magnitude: UInt64?, end: Int)? {
        var index = start
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        var negative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            negative = bytes[index] == UInt8(ascii: "-")
            index += 1
        }
        let digitsStart = index
        var magnitude: UInt64? = 0
        while index < bytes.count, isDigit(bytes[index]) {
            if let value = magnitude {
                let (times10, overflow1) = value.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(bytes[index] - 0x30))
                magnitude = overflow1 || overflow2 ? nil : sum
            }
            index += 1
        }
        guard index > digitsStart else { return nil }
        return (negative, magnitude, index)
    }

    /// `strtol(s, &end, 10)` with a 64-bit long: out-of-range values pin to `Int64.min/max`.
    static func long(_ bytes: [UInt8], from start: Int = 0) -> Result<Int64> {
        guard let scan = scanMagnitude(bytes, from: start) else { return Result(value: 0, end: start) }
        let value: Int64
        if scan.negative {
            // -2^63 itself and everything below pin to Int64.min.
            if let magnitude = scan.magnitude, magnitude <= UInt64(Int64.max) {
                value = -Int64(magnitude)
            } else {
                value = .min
            }
        } else {
            value = scan.magnitude.flatMap { $0 <= UInt64(Int64.max) ? Int64($0) : nil } ?? .max
        }
        return Result(value: value, end: scan.end)
    }

    /// `strtoul(s, &end, 10)` (and `strtoull`, the same on 64 bits): a `-` negates modulo 2^64,
    /// overflow is `UInt64.max` whatever the sign.
    static func unsignedLong(_ bytes: [UInt8], from start: Int = 0) -> Result<UInt64> {
        guard let scan = scanMagnitude(bytes, from: start) else { return Result(value: 0, end: start) }
        guard let magnitude = scan.magnitude else { return Result(value: .max, end: scan.end) }
        return Result(value: scan.negative ? 0 &- magnitude : magnitude, end: scan.end)
    }

    /// `strtof(s, &end)`: decimal (with exponent), hexadecimal (`0x1p3`), `inf`, `infinity` and
    /// `nan` in any case, after optional white space and sign. The value is rounded to Float
    /// once, as C does; overflow is ±infinity.
    static func float(_ bytes: [UInt8]) -> Result<Float> {
        var index = 0
        while index < bytes.count, isSpace(bytes[index]) { index += 1 }
        let signStart = index
        if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
        let bodyStart = index
        func lowercased(_ offset: Int) -> UInt8 {
            offset < bytes.count ? bytes[offset] | 0x20 : 0
        }
        func hasWord(_ word: String, at offset: Int) -> Bool {
            word.utf8.enumerated().allSatisfy { lowercased(offset + $0.offset) == $0.element }
        }
        let end: Int
        if hasWord("infinity", at: bodyStart) {
            end = bodyStart + 8
        } else if hasWord("inf", at: bodyStart) {
            end = bodyStart + 3
        } else if hasWord("nan", at: bodyStart) {
            end = bodyStart + 3
        } else if lowercased(bodyStart) == UInt8(ascii: "0"), lowercased(bodyStart + 1) == UInt8(ascii: "x"),
                  let hexEnd = scanHexadecimal(bytes, from: bodyStart + 2) {
            end = hexEnd
        } else if let decimalEnd = scanDecimal(bytes, from: bodyStart) {
            end = decimalEnd
        } else {
            return Result(value: 0, end: 0)
        }
        // Swift's parser reads the same grammar (no white space): hand it the sign and body.
        let text = String(decoding: bytes[signStart..<end], as: UTF8.self)
        return Result(value: Float(text) ?? 0, end: end)
    }

    /// End of `digits[.digits][e[±]digits]` at `start`, or nil without a digit in the mantissa.
    private static func scanDecimal(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        var digits = 0
        while index < bytes.count, isDigit(bytes[index]) { index += 1; digits += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            var exponent = index + 1
            if exponent < bytes.count, bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-") { exponent += 1 }
            let exponentDigits = exponent
            while exponent < bytes.count, isDigit(bytes[exponent]) { exponent += 1 }
            // An exponent without digits is not consumed ("1e" reads as 1, ending at "e").
            if exponent > exponentDigits { index = exponent }
        }
        return index
    }

    /// End of `hexdigits[.hexdigits][p[±]digits]` at `start` (after "0x"), or nil without one.
    private static func scanHexadecimal(_ bytes: [UInt8], from start: Int) -> Int? {
        func isHex(_ byte: UInt8) -> Bool { isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) }
        var index = start
        var digits = 0
        while index < bytes.count, isHex(bytes[index]) { index += 1; digits += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < bytes.count, isHex(bytes[index]) { index += 1; digits += 1 }
        }
        guard digits > 0 else { return nil }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "p") {
            var exponent = index + 1
            if exponent < bytes.count, bytes[exponent] == UInt8(ascii: "+") || bytes[exponent] == UInt8(ascii: "-") { exponent += 1 }
            let exponentDigits = exponent
            while exponent < bytes.count, isDigit(bytes[exponent]) { exponent += 1 }
            if exponent > exponentDigits { index = exponent }
        }
        return index
    }
}

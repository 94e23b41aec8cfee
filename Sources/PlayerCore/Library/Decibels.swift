/// Level ratios and decibels (20·log10, amplitude). PlayerCore imports no C library, not even
/// Glibc's libm, so the two functions it needs are written out here; accurate to ~1e-15.
public enum Decibels {
    /// The amplitude factor of `decibels` dB: 0 → 1, −6.0206 → 0.5, +6.0206 → 2.
    public static func scale(of decibels: Double) -> Double {
        exponential(decibels / 20 * ln10)
    }

    /// The dB of an amplitude factor: 0.5 → −6.0206; 0 → −∞.
    public static func of(scale: Double) -> Double {
        20 * naturalLog(scale) / ln10
    }

    private static let ln10 = 2.302_585_092_994_046
    private static let ln2 = 0.693_147_180_559_945_3

    private static func naturalLog(_ value: Double) -> Double {
        guard value > 0, value.isFinite else { return value == 0 ? -.infinity : (value.isInfinite ? .infinity : .nan) }
        // ln(m · 2^e) = ln(m) + e·ln2, and ln(m) = 2·atanh((m − 1)/(m + 1)) converges fast for m in [1, 2).
        let y = (value.significand - 1) / (value.significand + 1)
        var term = y
        var sum = 0.0
        var k = 1.0
        while abs(term / k) > 1e-18 {
            sum += term / k
            term *= y * y
            k += 2
        }
        return 2 * sum + Double(value.exponent) * ln2
    }

    private static func exponential(_ x: Double) -> Double {
        guard x.isFinite else { return x.isNaN ? .nan : (x > 0 ? .infinity : 0) }
        // e^x = 2^k · e^r with |r| ≤ ln2/2, and e^r from its series.
        let k = (x / ln2).rounded()
        guard k < 1024 else { return .infinity }
        guard k > -1075 else { return 0 }
        let r = x - k * ln2
        var term = 1.0
        var sum = 1.0
        for n in 1...30 {
            term *= r / Double(n)
            sum += term
            if abs(term) < 1e-18 { break }
        }
        return sum * Double(sign: .plus, exponent: Int(k), significand: 1)
    }
}

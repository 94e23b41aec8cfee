/// Time arithmetic that cannot trap.
///
/// Offsets and positions reach PlayerCore from outside (a bus client's `Seek(Int64.max)`, a
/// state file's position, a tag's length), and Swift traps on overflow: one hostile call would
/// kill the music. Every sum of two outside values goes through these, pinned to the
/// representable range; the policy (clamp to 0, clamp to the length, ignore) is decided after.
extension Int64 {
    /// `self + other`, pinned to `Int64.min ... Int64.max` instead of overflowing.
    @inlinable
    public func saturatingAdding(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, pinned instead of overflowing.
    @inlinable
    public func saturatingSubtracting(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other > 0 ? .min : .max
    }

    /// Microseconds in `seconds`, rounded; NaN is 0 and anything out of range is pinned.
    /// (`Int64(Double)` traps on NaN, infinity and values past ±9.2e18.)
    public static func microseconds(saturatingSeconds seconds: Double) -> Int64 {
        let value = (seconds * 1_000_000).rounded()
        if value.isNaN { return 0 }
        if value >= 9.223_372_036_854_775e18 { return .max }
        if value <= -9.223_372_036_854_775e18 { return .min }
        return Int64(value)
    }
}

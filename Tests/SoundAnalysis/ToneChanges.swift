import Foundation

extension ToneAnalysis {
    /// Where a steady tone of half-period `from` turns into one of half-period `to` (in samples):
    /// the first of `run` zero-crossing spacings in a row within `tolerance` of `to`, the
    /// `run` spacings ending `transition` crossings before it within `tolerance` of `from` (the
    /// encoder blurs the boundary for a few milliseconds). Strict, so that a dropout or a stretch
    /// of noise is not taken for the change; every change in `range`, in order.
    public func toneChanges(in range: Range<Int>, fromHalfPeriod from: Double,
                     toHalfPeriod to: Double, run: Int = 40, transition: Int = 30,
                     tolerance: Double = 2) -> [Double] {
        let crossings = zeroCrossings(in: range)
        let spacings = zip(crossings, crossings.dropFirst()).map { $1 - $0 }
        var changes: [Double] = []
        var index = run + transition
        while index + run <= spacings.count {
            let after = spacings[index..<(index + run)]
            let before = spacings[(index - transition - run)..<(index - transition)]
            if abs(spacings[index - 1] - to) >= tolerance, after.allSatisfy({ abs($0 - to) < tolerance }),
               before.allSatisfy({ abs($0 - from) < tolerance }) {
                changes.append(crossings[index])
                index += run
            } else {
                index += 1
            }
        }
        return changes
    }
}

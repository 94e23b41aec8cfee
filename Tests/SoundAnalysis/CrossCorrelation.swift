import Foundation

/// How far apart two recordings of the same music are: the lag (in frames) that best lines up
/// `b` with `a` (positive: `b` is later), by cross-correlation over `window` frames of `a`,
/// with the normalised correlation at that lag.
public enum CrossCorrelation {
    /// The lag in each 100 ms window of `span` (snapclient corrects its clock by dropping or
    /// doubling a frame now and then, so one long window correlates worse than short ones):
    /// the median lag and correlation, and the largest lag seen.
    public static func offsets(_ a: [Double], _ b: [Double], span: Range<Int>, rate: Double, maximumLag: Int)
        -> (median: Double, largest: Double, correlation: Double) {
        let step = Int(0.1 * rate)
        var lags: [Double] = [], correlations: [Double] = []
        var start = span.lowerBound
        while start + step <= span.upperBound {
            let best = lag(a, b, window: start..<(start + step), maximumLag: maximumLag)
            lags.append(Double(best.lag) / rate * 1000)
            correlations.append(best.correlation)
            start += step
        }
        guard !lags.isEmpty else { return (.nan, .nan, 0) }
        let sorted = lags.sorted(), sortedCorrelations = correlations.sorted()
        return (sorted[sorted.count / 2], lags.map(abs).max() ?? .nan, sortedCorrelations[sortedCorrelations.count / 2])
    }

    public static func lag(_ a: [Double], _ b: [Double], window: Range<Int>, maximumLag: Int) -> (lag: Int, correlation: Double) {
        var best = (lag: 0, correlation: -Double.infinity)
        let energyA = window.reduce(0.0) { $0 + a[$1] * a[$1] }
        for lag in -maximumLag...maximumLag {
            guard window.lowerBound + lag >= 0, window.upperBound + lag <= b.count else { continue }
            var product = 0.0, energyB = 0.0
            for index in window {
                let other = b[index + lag]
                product += a[index] * other
                energyB += other * other
            }
            let correlation = energyA > 0 && energyB > 0 ? product / (energyA * energyB).squareRoot() : 0
            if correlation > best.correlation { best = (lag, correlation) }
        }
        return best
    }
}

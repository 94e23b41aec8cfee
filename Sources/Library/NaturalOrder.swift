/// "Natural" ordering of names, as file managers show them: digit runs compare by value
/// ("2 x" before "10 x"), letters without regard to case.
enum NaturalOrder {
    static func areInIncreasingOrder(_ a: String, _ b: String) -> Bool {
        switch compare(a, b) {
        case .less: return true
        case .greater: return false
        // Equal ignoring case and leading zeros: fall back to plain order, so sorting is stable
        // across runs and never depends on the order the directory listed the files in.
        case .equal: return a < b
        }
    }

    enum Order { case less, equal, greater }

    static func compare(_ a: String, _ b: String) -> Order {
        var left = Array(a.lowercased().unicodeScalars)[...]
        var right = Array(b.lowercased().unicodeScalars)[...]
        while let l = left.first, let r = right.first {
            if isDigit(l) && isDigit(r) {
                let leftRun = left.prefix(while: isDigit)
                let rightRun = right.prefix(while: isDigit)
                left = left.dropFirst(leftRun.count)
                right = right.dropFirst(rightRun.count)
                let order = compareNumbers(leftRun, rightRun)
                if order != .equal { return order }
            } else {
                if l != r { return l.value < r.value ? .less : .greater }
                left = left.dropFirst()
                right = right.dropFirst()
            }
        }
        if left.isEmpty && right.isEmpty { return .equal }
        return left.isEmpty ? .less : .greater
    }

    private static func isDigit(_ scalar: Unicode.Scalar) -> Bool {
        scalar >= "0" && scalar <= "9"
    }

    /// Compares digit runs of any length by value, without overflow: strip leading zeros,
    /// then the longer run is the bigger number.
    private static func compareNumbers(_ a: ArraySlice<Unicode.Scalar>, _ b: ArraySlice<Unicode.Scalar>) -> Order {
        let x = a.drop { $0 == "0" }
        let y = b.drop { $0 == "0" }
        if x.count != y.count { return x.count < y.count ? .less : .greater }
        for (p, q) in zip(x, y) where p != q {
            return p.value < q.value ? .less : .greater
        }
        return .equal
    }
}

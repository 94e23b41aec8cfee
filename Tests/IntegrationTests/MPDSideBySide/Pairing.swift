/// Values two servers give out each their own way, paired by where they first appear.
struct Pairing {
    let prefix: String
    private var mpd: [String: Int] = [:]
    private var aubade: [String: Int] = [:]
    private var next = 1

    init(prefix: String) { self.prefix = prefix }

    /// The labels for a value of each server at the same place (nil: no such value there).
    /// `together`: they stand at the same place, so two new values become one label.
    mutating func labels(mpd left: String?, aubade right: String?, together: Bool) -> (String?, String?) {
        if together, let left, let right, mpd[left] == nil, aubade[right] == nil {
            mpd[left] = next
            aubade[right] = next
            next += 1
        }
        return (left.map { label($0, mpdSide: true) }, right.map { label($0, mpdSide: false) })
    }

    private mutating func label(_ value: String, mpdSide: Bool) -> String {
        // A value that is no number (an error's text) stays as it is.
        guard Int(value) != nil else { return value }
        if let known = mpdSide ? mpd[value] : aubade[value] { return "\(prefix)\(known)" }
        // Seen on one side only: a label of its own, which the other side cannot share.
        if mpdSide { mpd[value] = next } else { aubade[value] = next }
        next += 1
        return "\(prefix)\(next - 1) (\(mpdSide ? "mpd" : "aubade") \(value), unpaired)"
    }
}

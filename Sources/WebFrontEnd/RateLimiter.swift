/// At most `rate` changes a second from one address, with bursts of `burst` (a token bucket
/// each): a stranger's script that queues a song every few milliseconds is answered 429 and
/// changes nothing. The table of addresses is bounded: the oldest is forgotten first.
struct RateLimiter: Sendable {
    var rate: Double = 30
    var burst: Double = 60
    var maximumAddresses = 1024

    private struct Bucket {
        var tokens: Double
        var last: Double
    }

    private var buckets: [String: Bucket] = [:]

    init(rate: Double = 30, burst: Double = 60) {
        self.rate = rate
        self.burst = burst
    }

    /// Takes one token for `address` at `now` (seconds); false: over the limit.
    mutating func admit(_ address: String, now: Double) -> Bool {
        var bucket = buckets[address] ?? Bucket(tokens: burst, last: now)
        bucket.tokens = min(burst, bucket.tokens + max(0, now - bucket.last) * rate)
        bucket.last = now
        let admitted = bucket.tokens >= 1
        if admitted { bucket.tokens -= 1 }
        if buckets[address] == nil, buckets.count >= maximumAddresses,
           let oldest = buckets.min(by: { $0.value.last < $1.value.last })?.key {
            buckets[oldest] = nil
        }
        buckets[address] = bucket
        return admitted
    }
}

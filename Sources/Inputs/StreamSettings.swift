/// How streams are fetched; from aubade.conf (`stream-ca-file`) and fixed defaults.
public struct StreamSettings: Sendable, Equatable {
    /// A CA bundle to verify HTTPS servers against instead of the system's (a private
    /// station, a test server). Verification is never turned off.
    public var caFile: String?
    public var connectTimeout = 5.0
    /// No bytes for this long from a connection that we are reading counts as a drop.
    public var stallTimeout = 5.0
    /// Compressed audio held ahead of the decoder: 256 KiB is 16 s at 128 kbit/s, enough to
    /// ride out a reconnect, and what caps memory per stream. Reading stops when it is full.
    public var bufferCapacity = 256 * 1024

    public init(caFile: String? = nil) {
        self.caFile = caFile
    }
}

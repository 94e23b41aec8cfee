internal import CMpg123

/// One-time library setup.
///
/// `mpg123_init` must run before the first handle is made. A global `let` is initialised
/// lazily and exactly once by the Swift runtime (`swift_once`), which makes it thread-safe
/// without a lock of our own.
enum Mpg123Library {
    private static let initResult: Int32 = mpg123_init()

    /// Runs `mpg123_init` on first use; later calls only return its remembered result.
    static func ensureInitialized() throws(Mpg123Error) {
        let rc = initResult
        guard rc == MPG123_OK.rawValue else { throw Mpg123Error(function: "mpg123_init", code: rc) }
    }
}

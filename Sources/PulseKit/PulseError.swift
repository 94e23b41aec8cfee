internal import CPulse

/// A failed libpulse call: which C function failed, its error code (`PA_ERR_*`, positive)
/// and the message `pa_strerror` gives for it.
///
/// Every libpulse return value is checked next to the call and turned into this one error, so
/// a log line always names the C function that said no.
public struct PulseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The libpulse function that failed, e.g. `"pa_stream_connect_playback"`.
    public var function: String
    /// The `PA_ERR_*` code (positive), or 0 when the library gave none.
    public var code: Int32
    /// `pa_strerror(code)`.
    public var message: String

    public init(function: String, code: Int32, message: String) {
        self.function = function
        self.code = code
        self.message = message
    }

    /// Builds the error from a code; the sign is dropped because libpulse returns `-PA_ERR_*`
    /// from some functions and sets a positive `pa_context_errno` for others.
    init(_ function: String, code: Int32) {
        let positive = code < 0 ? -code : code
        self.init(function: function, code: positive, message: PulseError.describe(positive))
    }

    /// The error a context reports after a call failed (`pa_context_errno`).
    init(_ function: String, context: OpaquePointer?) {
        self.init(function, code: context.map { pa_context_errno($0) } ?? 0)
    }

    /// `pa_strerror` for a `PA_ERR_*` code.
    public static func describe(_ code: Int32) -> String {
        guard let text = pa_strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    public var description: String { "\(function): \(message) (\(code))" }
}

extension PulseError {
    /// Throws when a libpulse call that returns `0` / negative error code failed.
    @inline(__always)
    static func check(_ result: Int32, _ function: String) throws(PulseError) {
        if result < 0 { throw PulseError(function, code: result) }
    }
}

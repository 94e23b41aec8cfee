/// A failure reported by libFLAC (or by the system call FLACKit makes on its behalf).
///
/// `function` names the C function that failed (`FLAC__stream_decoder_init_FILE`, `open`…),
/// `message` is the library's own word for it (its state or status string) or `strerror`.
/// `systemErrno` is set when a system call failed (`open`, `fstat`, `fdopen`).
public struct FLACError: Error, Sendable, Equatable, CustomStringConvertible {
    public var function: String
    public var message: String
    public var systemErrno: Int32?

    public init(function: String, message: String, systemErrno: Int32? = nil) {
        self.function = function
        self.message = message
        self.systemErrno = systemErrno
    }

    public var description: String { "\(function): \(message)" }

    /// The path is not a regular file (a FIFO, a device, a directory): never opened for reading.
    public var isNotARegularFile: Bool { function == "fstat" && systemErrno == nil }
}

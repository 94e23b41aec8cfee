internal import CPulse

/// `pa_stream`: one playback (or record) stream on a `Context`.
///
/// Every method and property needs the mainloop lock (callbacks already hold it). The `on…`
/// handlers run on the mainloop thread. Release the last reference with the lock held too:
/// `deinit` detaches the C callbacks and unrefs the stream.
public final class Stream: @unchecked Sendable {
    // @unchecked Sendable: all state (pointer, handlers) is read and written only with the
    // threaded mainloop's lock held, which serialises the loop thread and every caller.
    let pointer: OpaquePointer
    /// Kept alive: a stream must not outlive its context.
    public let context: Context
    public let sampleSpec: SampleSpec

    public enum State: Sendable, Equatable {
        case unconnected, creating, ready, failed, terminated
        /// Failed or terminated: the stream is dead and can only be released.
        public var isFinal: Bool { self == .failed || self == .terminated }
    }

    /// `pa_stream_flags_t`.
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let startCorked = Flags(rawValue: PA_STREAM_START_CORKED.rawValue)
        public static let interpolateTiming = Flags(rawValue: PA_STREAM_INTERPOLATE_TIMING.rawValue)
        public static let autoTimingUpdate = Flags(rawValue: PA_STREAM_AUTO_TIMING_UPDATE.rawValue)
        public static let adjustLatency = Flags(rawValue: PA_STREAM_ADJUST_LATENCY.rawValue)
        public static let earlyRequests = Flags(rawValue: PA_STREAM_EARLY_REQUESTS.rawValue)
        public static let startUnmuted = Flags(rawValue: PA_STREAM_START_UNMUTED.rawValue)
        public static let startMuted = Flags(rawValue: PA_STREAM_START_MUTED.rawValue)
        public static let dontMove = Flags(rawValue: PA_STREAM_DONT_MOVE.rawValue)
        public static let failOnSuspend = Flags(rawValue: PA_STREAM_FAIL_ON_SUSPEND.rawValue)
    }

    /// Called when `state` changes.
    public var onStateChange: (() -> Void)?
    /// The server wants more data: the argument is the byte count it asked for.
    public var onWriteRequest: ((Int) -> Void)?
    /// The buffer ran empty during playback.
    public var onUnderflow: (() -> Void)?
    /// Playback started (after prebuffering or after an underflow).
    public var onStarted: (() -> Void)?
    /// A server event for this stream by name, e.g. `EventName.requestCork`.
    public var onEvent: ((String) -> Void)?

    /// Names of the stream events `onEvent` receives (`PA_STREAM_EVENT_*`).
    public enum EventName {
        /// The server's policy (e.g. `module-role-cork`) asks us to cork: a more important stream
        /// plays. The server has usually muted us already.
        public static let requestCork = PA_STREAM_EVENT_REQUEST_CORK
        /// The reason for an earlier `requestCork` is gone. Sent only to a client that really
        /// corked itself.
        public static let requestUncork = PA_STREAM_EVENT_REQUEST_UNCORK
    }
    /// The server moved the stream to another sink.
    public var onMoved: (() -> Void)?

    /// `pa_stream_new_with_proplist`.
    public init(context: Context, name: String, sampleSpec: SampleSpec,
                properties: Proplist? = nil) throws(PulseError) {
        var spec = sampleSpec.cValue
        guard let pointer = pa_stream_new_with_proplist(context.pointer, name, &spec, nil,
                                                         properties?.pointer) else {
            throw PulseError("pa_stream_new_with_proplist", context: context.pointer)
        }
        self.pointer = pointer
        self.context = context
        self.sampleSpec = sampleSpec
        installCallbacks()
    }

    deinit {
        // Detach first: the callbacks carry an unretained pointer to this object.
        pa_stream_set_state_callback(pointer, nil, nil)
        pa_stream_set_write_callback(pointer, nil, nil)
        pa_stream_set_underflow_callback(pointer, nil, nil)
        pa_stream_set_started_callback(pointer, nil, nil)
        pa_stream_set_event_callback(pointer, nil, nil)
        pa_stream_set_moved_callback(pointer, nil, nil)
        pa_stream_unref(pointer)
    }

    // MARK: Connection

    /// `pa_stream_connect_playback`. `device` nil = the server's choice; `volume` nil = default.
    public func connectPlayback(device: String? = nil, attributes: BufferAttributes? = nil,
                                flags: Flags = [], volume: ChannelVolumes? = nil) throws(PulseError) {
        var attr = attributes?.cValue ?? BufferAttributes().cValue
        var cv = volume?.cValue ?? pa_cvolume()
        let result = withUnsafeMutablePointer(to: &attr) { attrPointer in
            withUnsafeMutablePointer(to: &cv) { volumePointer in
                pa_stream_connect_playback(pointer, device, attributes == nil ? nil : attrPointer,
                                           pa_stream_flags_t(rawValue: flags.rawValue),
                                           volume == nil ? nil : volumePointer, nil)
            }
        }
        try PulseError.check(result, "pa_stream_connect_playback")
    }

    /// `pa_stream_disconnect`: removes the stream from the server; it becomes `.terminated`.
    public func disconnect() throws(PulseError) {
        try PulseError.check(pa_stream_disconnect(pointer), "pa_stream_disconnect")
    }

    public var state: State {
        switch pa_stream_get_state(pointer) {
        case PA_STREAM_CREATING: .creating
        case PA_STREAM_READY: .ready
        case PA_STREAM_FAILED: .failed
        case PA_STREAM_TERMINATED: .terminated
        default: .unconnected
        }
    }

    /// The server-side index (the sink input's index for playback), nil until ready.
    public var index: UInt32? {
        let index = pa_stream_get_index(pointer)
        return index == aubade_pa_invalid_index ? nil : index
    }

    /// The index of the sink the stream plays on, nil until ready.
    public var deviceIndex: UInt32? {
        let index = pa_stream_get_device_index(pointer)
        return index == aubade_pa_invalid_index ? nil : index
    }

    /// The name of the sink the stream plays on (`pa_stream_get_device_name`), nil until ready.
    /// Follows moves: it is up to date inside `onMoved`.
    public var deviceName: String? {
        guard state == .ready, let name = pa_stream_get_device_name(pointer) else { return nil }
        return String(cString: name)
    }

    /// Whether the stream is corked (`pa_stream_is_corked`).
    public var isCorked: Bool { pa_stream_is_corked(pointer) == 1 }

    /// The buffer attributes the server actually chose, nil until ready.
    public var bufferAttributes: BufferAttributes? {
        guard let attr = pa_stream_get_buffer_attr(pointer)?.pointee else { return nil }
        return BufferAttributes(maxLength: Int(attr.maxlength), targetLength: Int(attr.tlength),
                                prebuffer: Int(attr.prebuf), minimumRequest: Int(attr.minreq),
                                fragmentSize: Int(attr.fragsize))
    }

    // MARK: Writing (zero copy)

    /// How many bytes the server wants now (`pa_stream_writable_size`).
    public func writableSize() throws(PulseError) -> Int {
        let size = pa_stream_writable_size(pointer)
        if size == -1 {  // (size_t) -1
            throw PulseError("pa_stream_writable_size", context: context.pointer)
        }
        return size
    }

    /// `pa_stream_begin_write`: a buffer inside libpulse's memory pool to fill in place; it may
    /// be smaller than `maxBytes`. Follow with `commitWrite` or `cancelWrite`.
    public func beginWrite(maxBytes: Int) throws(PulseError) -> UnsafeMutableRawBufferPointer {
        var data: UnsafeMutableRawPointer? = nil
        var size = maxBytes
        try PulseError.check(pa_stream_begin_write(pointer, &data, &size), "pa_stream_begin_write")
        guard let data else {
            throw PulseError(function: "pa_stream_begin_write", code: 0, message: "no buffer")
        }
        return UnsafeMutableRawBufferPointer(start: data, count: size)
    }

    /// `pa_stream_write` of the first `count` bytes of a `beginWrite` buffer, at the write index.
    public func commitWrite(_ buffer: UnsafeMutableRawBufferPointer, count: Int) throws(PulseError) {
        let result = pa_stream_write(pointer, buffer.baseAddress, count, nil, 0, PA_SEEK_RELATIVE)
        try PulseError.check(result, "pa_stream_write")
    }

    /// `pa_stream_cancel_write`: gives a `beginWrite` buffer back unused.
    public func cancelWrite() {
        // Only fails when no write was begun, which is then nothing to undo.
        _ = pa_stream_cancel_write(pointer)
    }

    // MARK: Timing

    /// `pa_stream_get_timing_info`'s indexes: where the client writes and the server reads.
    public struct TimingInfo: Sendable, Equatable {
        /// Absolute byte index of the next write; meaningless while `writeIndexCorrupt`.
        public var writeIndex: Int64
        public var writeIndexCorrupt: Bool
        /// Absolute byte index the server reads (plays) next.
        public var readIndex: Int64
        public var readIndexCorrupt: Bool
        /// Latency of the sink, µs.
        public var sinkLatency: UInt64
    }

    /// The latest timing info, nil before the first timing update.
    public var timingInfo: TimingInfo? {
        guard let info = pa_stream_get_timing_info(pointer)?.pointee else { return nil }
        return TimingInfo(writeIndex: info.write_index, writeIndexCorrupt: info.write_index_corrupt != 0,
                          readIndex: info.read_index, readIndexCorrupt: info.read_index_corrupt != 0,
                          sinkLatency: info.sink_usec)
    }

    /// `pa_stream_get_time`: the playback position in µs of the stream's absolute read index,
    /// minus the sink's latency (= what is audible now). Interpolated with `.interpolateTiming`.
    /// Throws `PA_ERR_NODATA` before the first timing update.
    public func time() throws(PulseError) -> UInt64 {
        var usec: pa_usec_t = 0
        try PulseError.check(pa_stream_get_time(pointer, &usec), "pa_stream_get_time")
        return usec
    }
}

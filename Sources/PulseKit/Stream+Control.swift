internal import CPulse

/// Requests on a stream (each a `pa_operation`) and the C callback trampolines.
extension Stream {
    /// `pa_stream_cork`: pause (true) or resume (false) playback without dropping the buffer.
    @discardableResult
    public func cork(_ corked: Bool, completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_stream_cork", completion) { pa_stream_cork(pointer, corked ? 1 : 0, $0, $1) }
    }

    /// `pa_stream_flush`: drops everything buffered; the write index goes back to the read index.
    @discardableResult
    public func flush(completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_stream_flush", completion) { pa_stream_flush(pointer, $0, $1) }
    }

    /// `pa_stream_drain`: completes once everything written has been played.
    @discardableResult
    public func drain(completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_stream_drain", completion) { pa_stream_drain(pointer, $0, $1) }
    }

    /// `pa_stream_trigger`: starts playback even if the prebuffer is not full.
    @discardableResult
    public func trigger(completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_stream_trigger", completion) { pa_stream_trigger(pointer, $0, $1) }
    }

    /// `pa_stream_update_timing_info`: asks the server for fresh indexes now.
    @discardableResult
    public func updateTimingInfo(completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_stream_update_timing_info", completion) {
            pa_stream_update_timing_info(pointer, $0, $1)
        }
    }

    /// `pa_stream_proplist_update`, e.g. `media.title` when a new track starts.
    @discardableResult
    public func updateProperties(_ properties: Proplist, mode: Proplist.UpdateMode = .replace,
                                 completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_stream_proplist_update", completion) {
            pa_stream_proplist_update(pointer, mode.raw, properties.pointer, $0, $1)
        }
    }

    /// Issues one request; the optional completion travels in a `CallbackBox`.
    private func request(_ function: String, _ completion: ((Bool) -> Void)?,
                         _ call: (pa_stream_success_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?)
        throws(PulseError) -> Operation {
        guard let completion else {
            return try Operation.wrap(call(nil, nil), function, context: context.pointer)
        }
        let userdata = CallbackBox<Bool>(completion).retainedUserdata()
        let operation = call({ _, success, userdata in
            CallbackBox<Bool>.from(userdata)?.handler(success != 0)
        }, userdata)
        CallbackBox<Bool>.attach(userdata, to: operation)
        return try Operation.wrap(operation, function, context: context.pointer)
    }

    /// Registers trampolines that forward to the `on…` handlers. Userdata is unretained:
    /// `deinit` unregisters them before the object goes away.
    func installCallbacks() {
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_stream_set_state_callback(pointer, { _, userdata in
            Stream.from(userdata)?.onStateChange?()
        }, me)
        pa_stream_set_write_callback(pointer, { _, bytes, userdata in
            Stream.from(userdata)?.onWriteRequest?(bytes)
        }, me)
        pa_stream_set_underflow_callback(pointer, { _, userdata in
            Stream.from(userdata)?.onUnderflow?()
        }, me)
        pa_stream_set_started_callback(pointer, { _, userdata in
            Stream.from(userdata)?.onStarted?()
        }, me)
        pa_stream_set_event_callback(pointer, { _, name, _, userdata in
            guard let name else { return }
            Stream.from(userdata)?.onEvent?(String(cString: name))
        }, me)
        pa_stream_set_moved_callback(pointer, { _, userdata in
            Stream.from(userdata)?.onMoved?()
        }, me)
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> Stream? {
        guard let userdata else { return nil }
        return Unmanaged<Stream>.fromOpaque(userdata).takeUnretainedValue()
    }
}

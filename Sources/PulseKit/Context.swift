internal import CPulse

/// `pa_context`: the connection to a PulseAudio server.
///
/// Every method and property needs the mainloop lock (callbacks already hold it). Handlers run
/// on the mainloop thread. Release the last reference with the lock held: `deinit` detaches the
/// C callbacks, disconnects and unrefs. A failed context cannot reconnect: make a new one.
public final class Context: @unchecked Sendable {
    // @unchecked Sendable: all state is used only with the threaded mainloop's lock held.
    let pointer: OpaquePointer
    public let mainloop: ThreadedMainloop

    public enum State: Sendable, Equatable {
        case unconnected, connecting, authorizing, settingName, ready, failed, terminated
        /// Failed or terminated: the connection is gone for good.
        public var isFinal: Bool { self == .failed || self == .terminated }
    }

    /// Called when `state` changes.
    public var onStateChange: (() -> Void)?
    /// Called for each event matching the mask given to `subscribe`.
    public var onSubscriptionEvent: ((SubscriptionEvent) -> Void)?

    /// `pa_context_new_with_proplist`. `properties` typically holds `application.*` keys.
    public init(mainloop: ThreadedMainloop, name: String, properties: Proplist? = nil) throws(PulseError) {
        guard let pointer = pa_context_new_with_proplist(mainloop.api, name, properties?.pointer) else {
            throw PulseError(function: "pa_context_new_with_proplist", code: 0, message: "failed")
        }
        self.pointer = pointer
        self.mainloop = mainloop
        let me = Unmanaged.passUnretained(self).toOpaque()
        pa_context_set_state_callback(pointer, { _, userdata in
            Context.from(userdata)?.onStateChange?()
        }, me)
        pa_context_set_subscribe_callback(pointer, { _, type, index, userdata in
            Context.from(userdata)?.onSubscriptionEvent?(SubscriptionEvent(raw: type, index: index))
        }, me)
    }

    deinit {
        pa_context_set_state_callback(pointer, nil, nil)
        pa_context_set_subscribe_callback(pointer, nil, nil)
        pa_context_disconnect(pointer)
        pa_context_unref(pointer)
    }

    /// `pa_context_connect`. `server` nil = the default (`PULSE_SERVER`, client.conf, the
    /// user's runtime dir). Without `autospawn` (`PA_CONTEXT_NOAUTOSPAWN`) a missing server is
    /// an error instead of a newly started one. Completion is reported through `onStateChange`.
    public func connect(server: String? = nil, autospawn: Bool = false) throws(PulseError) {
        let flags = autospawn ? PA_CONTEXT_NOFLAGS : PA_CONTEXT_NOAUTOSPAWN
        try PulseError.check(pa_context_connect(pointer, server, flags, nil) < 0 ? -pa_context_errno(pointer) : 0,
                             "pa_context_connect")
    }

    /// `pa_context_disconnect`: the context becomes `.terminated`.
    public func disconnect() { pa_context_disconnect(pointer) }

    public var state: State {
        switch pa_context_get_state(pointer) {
        case PA_CONTEXT_CONNECTING: .connecting
        case PA_CONTEXT_AUTHORIZING: .authorizing
        case PA_CONTEXT_SETTING_NAME: .settingName
        case PA_CONTEXT_READY: .ready
        case PA_CONTEXT_FAILED: .failed
        case PA_CONTEXT_TERMINATED: .terminated
        default: .unconnected
        }
    }

    /// The last error on this context (`pa_context_errno`), e.g. why it failed.
    public func lastError(_ function: String) -> PulseError { PulseError(function, context: pointer) }

    /// The server's name and version, nil until ready.
    public var serverDescription: String? {
        guard let name = pa_context_get_server(pointer) else { return nil }
        return String(cString: name)
    }

    private static func from(_ userdata: UnsafeMutableRawPointer?) -> Context? {
        guard let userdata else { return nil }
        return Unmanaged<Context>.fromOpaque(userdata).takeUnretainedValue()
    }
}

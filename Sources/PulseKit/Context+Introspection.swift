internal import CPulse

/// Server queries and commands on a context (`introspect.h`, `subscribe.h`).
extension Context {
    /// `pa_context_subscribe`: start receiving `onSubscriptionEvent` for `mask`.
    @discardableResult
    public func subscribe(_ mask: SubscriptionMask,
                          completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_context_subscribe", completion) {
            pa_context_subscribe(pointer, pa_subscription_mask_t(rawValue: mask.rawValue), $0, $1)
        }
    }

    /// `pa_context_set_sink_input_volume`.
    @discardableResult
    public func setSinkInputVolume(_ index: UInt32, _ volume: ChannelVolumes,
                                   completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        var cv = volume.cValue
        return try request("pa_context_set_sink_input_volume", completion) {
            pa_context_set_sink_input_volume(pointer, index, &cv, $0, $1)
        }
    }

    /// `pa_context_set_sink_input_mute`: mutes (or unmutes) sink input `index`.
    @discardableResult
    public func setSinkInputMute(_ index: UInt32, _ muted: Bool,
                                 completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_context_set_sink_input_mute", completion) {
            pa_context_set_sink_input_mute(pointer, index, muted ? 1 : 0, $0, $1)
        }
    }

    /// `pa_context_set_card_profile_by_name`: switches card `card` (by name) to `profile`.
    /// `completion` gets false when the server refuses (no such card or profile, profile
    /// unavailable). Throws at once for an invalid request (empty name, context not ready).
    @discardableResult
    public func setCardProfile(card: String, profile: String,
                               completion: ((Bool) -> Void)? = nil) throws(PulseError) -> Operation {
        try request("pa_context_set_card_profile_by_name", completion) {
            pa_context_set_card_profile_by_name(pointer, card, profile, $0, $1)
        }
    }

    /// `pa_context_get_sink_input_info`: `completion` gets the info, or nil if the sink input
    /// does not exist (any more).
    @discardableResult
    public func sinkInputInfo(_ index: UInt32,
                              completion: @escaping (SinkInputInfo?) -> Void) throws(PulseError) -> Operation {
        let userdata = CallbackBox<SinkInputInfo?>(completion).retainedUserdata()
        let operation = pa_context_get_sink_input_info(pointer, index, { _, info, eol, userdata in
            // One call with the info, then one with eol = 1; eol < 0 = error (no such index).
            if let info {
                CallbackBox<SinkInputInfo?>.from(userdata)?.handler(SinkInputInfo(info.pointee))
            } else if eol < 0 {
                CallbackBox<SinkInputInfo?>.from(userdata)?.handler(nil)
            }
        }, userdata)
        CallbackBox<SinkInputInfo?>.attach(userdata, to: operation)
        return try Operation.wrap(operation, "pa_context_get_sink_input_info", context: pointer)
    }

    /// Issues one request whose reply is a success flag; the completion rides in a box.
    private func request(_ function: String, _ completion: ((Bool) -> Void)?,
                         _ call: (pa_context_success_cb_t?, UnsafeMutableRawPointer?) -> OpaquePointer?)
        throws(PulseError) -> Operation {
        guard let completion else { return try Operation.wrap(call(nil, nil), function, context: pointer) }
        let userdata = CallbackBox<Bool>(completion).retainedUserdata()
        let operation = call({ _, success, userdata in
            CallbackBox<Bool>.from(userdata)?.handler(success != 0)
        }, userdata)
        CallbackBox<Bool>.attach(userdata, to: operation)
        return try Operation.wrap(operation, function, context: pointer)
    }
}

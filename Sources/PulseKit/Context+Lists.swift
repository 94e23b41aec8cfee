internal import CPulse

/// Snapshot queries of the server's objects (`introspect.h`). Each reply arrives on the loop
/// thread; list replies are collected and handed over in one array, or nil if the request
/// failed. The server answers requests on one context in the order they were sent, so several
/// issued together describe one consistent moment as seen by the last reply.
extension Context {
    /// `pa_context_get_server_info`: `completion` gets the info, or nil on failure.
    @discardableResult
    public func serverInfo(completion: @escaping (ServerInfo?) -> Void) throws(PulseError) -> Operation {
        let userdata = CallbackBox<ServerInfo?>(completion).retainedUserdata()
        let operation = pa_context_get_server_info(pointer, { _, info, userdata in
            // NULL info = the request failed.
            CallbackBox<ServerInfo?>.from(userdata)?.handler(info.map { ServerInfo($0.pointee) })
        }, userdata)
        CallbackBox<ServerInfo?>.attach(userdata, to: operation)
        return try Operation.wrap(operation, "pa_context_get_server_info", context: pointer)
    }

    /// `pa_context_get_sink_info_list`.
    @discardableResult
    public func sinks(completion: @escaping ([SinkInfo]?) -> Void) throws(PulseError) -> Operation {
        let userdata = ListBox<SinkInfo>(completion).retainedUserdata()
        let operation = pa_context_get_sink_info_list(pointer, { _, info, eol, userdata in
            ListBox<SinkInfo>.from(userdata)?.receive(info.map { SinkInfo($0.pointee) }, eol: eol)
        }, userdata)
        ListBox<SinkInfo>.attach(userdata, to: operation)
        return try Operation.wrap(operation, "pa_context_get_sink_info_list", context: pointer)
    }

    /// `pa_context_get_card_info_list`.
    @discardableResult
    public func cards(completion: @escaping ([CardInfo]?) -> Void) throws(PulseError) -> Operation {
        let userdata = ListBox<CardInfo>(completion).retainedUserdata()
        let operation = pa_context_get_card_info_list(pointer, { _, info, eol, userdata in
            ListBox<CardInfo>.from(userdata)?.receive(info.map { CardInfo($0.pointee) }, eol: eol)
        }, userdata)
        ListBox<CardInfo>.attach(userdata, to: operation)
        return try Operation.wrap(operation, "pa_context_get_card_info_list", context: pointer)
    }

    /// `pa_context_get_source_info_list`: capture devices and sink monitors.
    @discardableResult
    public func sources(completion: @escaping ([SourceInfo]?) -> Void) throws(PulseError) -> Operation {
        let userdata = ListBox<SourceInfo>(completion).retainedUserdata()
        let operation = pa_context_get_source_info_list(pointer, { _, info, eol, userdata in
            ListBox<SourceInfo>.from(userdata)?.receive(info.map { SourceInfo($0.pointee) }, eol: eol)
        }, userdata)
        ListBox<SourceInfo>.attach(userdata, to: operation)
        return try Operation.wrap(operation, "pa_context_get_source_info_list", context: pointer)
    }

    /// `pa_context_get_sink_input_info_list`: every playback stream, ours included.
    @discardableResult
    public func sinkInputs(completion: @escaping ([SinkInputInfo]?) -> Void) throws(PulseError) -> Operation {
        let userdata = ListBox<SinkInputInfo>(completion).retainedUserdata()
        let operation = pa_context_get_sink_input_info_list(pointer, { _, info, eol, userdata in
            ListBox<SinkInputInfo>.from(userdata)?.receive(info.map { SinkInputInfo($0.pointee) }, eol: eol)
        }, userdata)
        ListBox<SinkInputInfo>.attach(userdata, to: operation)
        return try Operation.wrap(operation, "pa_context_get_sink_input_info_list", context: pointer)
    }

    /// `pa_context_get_source_output_info_list`: every capture stream.
    @discardableResult
    public func sourceOutputs(completion: @escaping ([SourceOutputInfo]?) -> Void) throws(PulseError) -> Operation {
        let userdata = ListBox<SourceOutputInfo>(completion).retainedUserdata()
        let operation = pa_context_get_source_output_info_list(pointer, { _, info, eol, userdata in
            ListBox<SourceOutputInfo>.from(userdata)?.receive(info.map { SourceOutputInfo($0.pointee) }, eol: eol)
        }, userdata)
        ListBox<SourceOutputInfo>.attach(userdata, to: operation)
        return try Operation.wrap(operation, "pa_context_get_source_output_info_list", context: pointer)
    }
}

/// Collects the items of a list reply (`eol == 0` with an item, then `eol > 0` once; `eol < 0`
/// = failure) and hands them over when the list ends. Lifetime as `CallbackBox`.
final class ListBox<Element>: CallbackBoxBase, @unchecked Sendable {
    // @unchecked Sendable: created, filled and released on the loop thread / under its lock.
    private var items: [Element] = []
    private let completion: ([Element]?) -> Void

    init(_ completion: @escaping ([Element]?) -> Void) { self.completion = completion }

    /// The `userdata` to give libpulse (+1 retain, released by `attach(to:)`'s callback).
    func retainedUserdata() -> UnsafeMutableRawPointer { Unmanaged.passRetained(self).toOpaque() }

    func receive(_ item: Element?, eol: Int32) {
        if eol < 0 {
            completion(nil)
        } else if eol > 0 {
            completion(items)
        } else if let item {
            items.append(item)
        }
    }

    static func from(_ userdata: UnsafeMutableRawPointer?) -> ListBox<Element>? {
        guard let userdata else { return nil }
        return Unmanaged<ListBox<Element>>.fromOpaque(userdata).takeUnretainedValue()
    }
}

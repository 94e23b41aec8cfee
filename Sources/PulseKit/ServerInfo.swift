internal import CPulse

/// What `pa_context_get_server_info` reports: who the server is and its default devices.
public struct ServerInfo: Sendable, Equatable {
    /// "pulseaudio", or "PulseAudio (on PipeWire 0.3.65)" for pipewire-pulse.
    public var serverName: String
    public var serverVersion: String
    /// The sink new streams go to; nil when there is none.
    public var defaultSinkName: String?
    public var defaultSourceName: String?

    init(_ info: pa_server_info) {
        serverName = info.server_name.map { String(cString: $0) } ?? ""
        serverVersion = info.server_version.map { String(cString: $0) } ?? ""
        defaultSinkName = info.default_sink_name.map { String(cString: $0) }
        defaultSourceName = info.default_source_name.map { String(cString: $0) }
    }
}

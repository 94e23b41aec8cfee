public import MPDProtocol

/// Where the MPD front-end listens and whom it lets do what (aubade.conf's `mpd-*` keys).
public struct MPDServerSettings: Sendable, Equatable {
    /// The Unix socket, always served (`$XDG_RUNTIME_DIR/aubade/mpd.socket`); nil for none.
    public var socketPath: String?
    /// TCP: an address ("127.0.0.1", "::1", "any" for every address), or nil for none.
    public var address: String?
    public var port: UInt16
    /// `mpd-password`: each secret with its permissions (mpd's `password "secret@read,add"`).
    public var passwords: [String: MPDPermissions]
    /// `default-permissions`; nil: mpd's rule (everything, or nothing once a password is set).
    public var defaultPermissions: MPDPermissions?
    /// At most this many clients at once (mpd's `max_connections`).
    public var maximumClients: Int
    /// A client silent this long (seconds) is closed, unless it waits in `idle`.
    public var timeout: Double
    /// The largest output waiting for a client that does not read (mpd's 8 MiB): past it, the
    /// client is closed. Long answers are streamed as the client reads, whatever their size.
    public var outputLimit: Int

    public init(socketPath: String? = nil, address: String? = "127.0.0.1", port: UInt16 = 6600,
                passwords: [String: MPDPermissions] = [:], defaultPermissions: MPDPermissions? = nil,
                maximumClients: Int = 100, timeout: Double = 60, outputLimit: Int = 8 << 20) {
        self.socketPath = socketPath
        self.address = address
        self.port = port
        self.passwords = passwords
        self.defaultPermissions = defaultPermissions
        self.maximumClients = maximumClients
        self.timeout = timeout
        self.outputLimit = outputLimit
    }

    /// What a client has before any `password` (mpd's `initPermissions`).
    public var initialPermissions: MPDPermissions {
        defaultPermissions ?? (passwords.isEmpty ? .all : [])
    }
}

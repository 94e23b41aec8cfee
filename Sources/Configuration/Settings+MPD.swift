import MPDProtocol

/// The keys of the MPD front-end: where it listens and whom it lets do what.
extension ConfigurationKey {
    static let mpdKeys: [ConfigurationKey] = [
        ConfigurationKey(
            name: "mpd-address", placeholder: "ADDRESS|any|none", defaultText: "127.0.0.1", flag: "--mpd-address A",
            meaning: ["Where MPD clients (mpc, ncmpcpp, phone apps, Home Assistant) reach Aubade over TCP:",
                      "an IPv4 or IPv6 address of this machine, any for every address (the LAN: see",
                      "mpd-password), or none for no TCP. The Unix socket $XDG_RUNTIME_DIR/aubade/mpd.socket",
                      "is always served."],
            apply: { settings, value, _ throws(ValueError) in settings.mpdAddress = try ValueError.mpdAddress(value) },
            takesEffect: .restart,
            value: { settings in settings.mpdAddress ?? "none" }),
        ConfigurationKey(
            name: "mpd-port", placeholder: "PORT", defaultText: "6600", flag: "--mpd-port P",
            meaning: ["The TCP port for MPD clients (1 to 65535). Taken (a real mpd): one log line, and",
                      "the Unix socket is served alone."],
            apply: { settings, value, _ throws(ValueError) in
                settings.mpdPort = Int(try ValueError.number(value, in: 1...65_535, expected: "a port from 1 to 65535"))
                guard Double(settings.mpdPort) == Double(value) else { throw ValueError(expected: "a port from 1 to 65535") }
            },
            takesEffect: .restart,
            value: { settings in "\(settings.mpdPort)" }),
        ConfigurationKey(
            name: "mpd-password", placeholder: "SECRET@PERMISSIONS", defaultText: "none",
            meaning: ["A password for MPD clients and what it allows, as mpd's: secret@read,add,control,admin",
                      "(and player). Repeat the key for several. Once one is set, a client that sends no",
                      "password may do only what default-permissions says (nothing, by default)."],
            repeatable: true,
            apply: { settings, value, _ throws(ValueError) in
                let (secret, permissions) = try ValueError.mpdPassword(value)
                settings.mpdPasswords[secret] = permissions
            },
            takesEffect: .restart,
            value: { settings in settings.mpdPasswords.isEmpty ? "(none)" : "\(settings.mpdPasswords.count) set" }),
        ConfigurationKey(
            name: "default-permissions", placeholder: "read,add,player,control,admin",
            defaultText: "all of them; none once an mpd-password is set",
            meaning: ["What an MPD client may do before it sends a password (mpd's default_permissions):",
                      "e.g. read for a LAN where everyone may browse but only the password may play."],
            apply: { settings, value, _ throws(ValueError) in settings.mpdDefaultPermissions = try ValueError.permissions(value) },
            takesEffect: .restart,
            value: { settings in settings.mpdDefaultPermissions.map { "\($0.rawValue)" } ?? "(mpd's rule)" }),
        ConfigurationKey(
            name: "mpd-max-clients", placeholder: "N", defaultText: "100",
            meaning: ["At most this many MPD clients at once (1 to 10000); more are turned away."],
            apply: { settings, value, _ throws(ValueError) in
                settings.mpdMaximumClients = Int(try ValueError.number(value, in: Settings.mpdMaximumClientsRange,
                                                                      expected: "a number from 1 to 10000"))
            },
            takesEffect: .restart,
            value: { settings in "\(settings.mpdMaximumClients)" }),
        ConfigurationKey(
            name: "mpd-timeout", placeholder: "SECONDS", defaultText: "60",
            meaning: ["An MPD client that sends and reads nothing this long is closed (mpd's",
                      "connection_timeout; 1 to 86400 s). One waiting in idle never is."],
            apply: { settings, value, _ throws(ValueError) in
                settings.mpdTimeout = try ValueError.number(value, in: Settings.mpdTimeoutRange,
                                                            expected: "a number of seconds from 1 to 86400")
            },
            takesEffect: .restart,
            value: { settings in "\(settings.mpdTimeout)" }),
    ]
}

extension ValueError {
    static func mpdAddress(_ value: String) throws(ValueError) -> String? {
        let text = value.lowercased()
        if text == "none" || text == "off" { return nil }
        if text == "any" { return "any" }
        let isIPv4 = value.split(separator: ".", omittingEmptySubsequences: false).count == 4
            && value.split(separator: ".").allSatisfy { UInt8($0) != nil }
        let isIPv6 = value.contains(":") && value.allSatisfy { $0.isHexDigit || $0 == ":" || $0 == "." }
        guard isIPv4 || isIPv6 else {
            throw ValueError(expected: "an IP address of this machine (127.0.0.1, ::1, 192.168.1.2), any or none")
        }
        return value
    }

    static func permissions(_ value: String) throws(ValueError) -> MPDPermissions {
        do throws(MPDPermissions.UnknownPermission) {
            return try MPDPermissions(parsing: value)
        } catch {
            throw ValueError(expected: "permissions from read, add, player, control and admin, separated by commas")
        }
    }

    static func mpdPassword(_ value: String) throws(ValueError) -> (String, MPDPermissions) {
        guard let at = value.lastIndex(of: "@"), at != value.startIndex else {
            throw ValueError(expected: "SECRET@PERMISSIONS, e.g. hunter2@read,add,control")
        }
        return (String(value[..<at]), try permissions(String(value[value.index(after: at)...])))
    }
}

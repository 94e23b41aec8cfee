/// The keys of the web front-end (the page for a phone or a browser, docs/web.md).
extension ConfigurationKey {
    static let webKeys: [ConfigurationKey] = [
        ConfigurationKey(
            name: "http-address", placeholder: "ADDRESS|any|none", defaultText: "127.0.0.1", flag: "--http-address A",
            meaning: ["Where the page for a phone or a browser is served: an IPv4 or IPv6 address of this",
                      "machine, any for every address (the LAN: every request then needs the token that",
                      "`aubade web` prints), or none for no page."],
            apply: { settings, value, _ throws(ValueError) in settings.httpAddress = try ValueError.mpdAddress(value) },
            takesEffect: .restart,
            value: { settings in settings.httpAddress ?? "none" }),
        ConfigurationKey(
            name: "http-port", placeholder: "PORT", defaultText: "6680", flag: "--http-port P",
            meaning: ["The TCP port of the page (1 to 65535). Taken: one log line, and no page."],
            apply: { settings, value, _ throws(ValueError) in
                settings.httpPort = Int(try ValueError.number(value, in: 1...65_535, expected: "a port from 1 to 65535"))
                guard Double(settings.httpPort) == Double(value) else { throw ValueError(expected: "a port from 1 to 65535") }
            },
            takesEffect: .restart,
            value: { settings in "\(settings.httpPort)" }),
    ]
}

extension ValueError {
    /// A TCP port, as a flag gives it.
    static func port(_ raw: String) throws(ValueError) -> Int {
        guard let port = Int(raw), (1...65_535).contains(port) else { throw ValueError(expected: "a port from 1 to 65535") }
        return port
    }
}

// The MPD protocol, pure: see the module comment in Package.swift.

// The MPD front-end: see Package.swift.

// Front-ends of the one player: see Package.swift.

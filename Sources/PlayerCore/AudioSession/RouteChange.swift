/// A change of the route, with the reason iOS would give for it.
public struct RouteChange: Sendable, Equatable {
    public enum Reason: String, Sendable, CaseIterable {
        /// A device appeared (and may now be the route).
        case newDeviceAvailable
        /// The device we played to went away: a jack unplugged, a headset disconnected.
        case oldDeviceUnavailable
        /// Someone moved our stream, switched the port, or changed the default on purpose.
        case override
        /// No output is left.
        case noSuitableRoute
    }

    public var reason: Reason
    public var previous: AudioRoute?
    public var current: AudioRoute?

    public init(reason: Reason, previous: AudioRoute?, current: AudioRoute?) {
        self.reason = reason
        self.previous = previous
        self.current = current
    }

    /// The change between two readings of the server, or nil when the route did not change.
    ///
    /// - Same sink, other port: the old port unavailable means it was unplugged (the server
    ///   switches ports by itself on a jack unplug); a port that just became available was
    ///   plugged in; otherwise the user switched ports.
    /// - Other sink: the old sink gone means the device left (the server moved our stream);
    ///   a sink that just appeared means the server followed a new device; otherwise the
    ///   user moved us or changed the default.
    /// - The same route but a new sink in the list: a device became available.
    public static func between(_ old: SoundServerFacts, _ new: SoundServerFacts) -> RouteChange? {
        let previous = AudioRoute(facts: old)
        let current = AudioRoute(facts: new)
        let oldSinkNames = Set(old.sinks.map(\.name))
        func change(_ reason: Reason) -> RouteChange { RouteChange(reason: reason, previous: previous, current: current) }

        guard let current else { return previous == nil ? nil : change(.noSuitableRoute) }
        guard let previous else { return change(.newDeviceAvailable) }

        if previous.sinkName == current.sinkName {
            if previous.portName != current.portName {
                let oldPort = new.sink(named: current.sinkName)?.ports.first { $0.name == previous.portName }
                if oldPort == nil || oldPort?.availability == .no { return change(.oldDeviceUnavailable) }
                let newPortBefore = old.sink(named: current.sinkName)?.ports.first { $0.name == current.portName }
                if newPortBefore?.availability == .no { return change(.newDeviceAvailable) }
                return change(.override)
            }
            if new.sinks.contains(where: { !oldSinkNames.contains($0.name) }) { return change(.newDeviceAvailable) }
            return previous == current ? nil : change(.override)
        }
        if new.sink(named: previous.sinkName) == nil { return change(.oldDeviceUnavailable) }
        if !oldSinkNames.contains(current.sinkName) { return change(.newDeviceAvailable) }
        return change(.override)
    }
}

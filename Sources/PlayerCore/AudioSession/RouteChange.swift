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

        guard let previous else { return current == nil ? nil : change(.newDeviceAvailable) }
        guard let current else {
            // Sinks are left but none is ours or the default yet: the server is between the
            // removal of our device and moving us. Our device going is what happened.
            let deviceGone = new.sink(named: previous.sinkName) == nil
            return change(deviceGone && !new.sinks.isEmpty ? .oldDeviceUnavailable : .noSuitableRoute)
        }

        if previous.sinkName == current.sinkName {
            if previous.portName != current.portName {
                return change(portSwitchReason(old: old, new: new, from: previous.portName,
                                               to: current.portName, on: current.sinkName))
            }
            if new.sinks.contains(where: { !oldSinkNames.contains($0.name) }) { return change(.newDeviceAvailable) }
            return previous == current ? nil : change(.override)
        }
        if new.sink(named: previous.sinkName) == nil {
            // A Bluetooth card switching profiles replaces its sink: the device is still here.
            let oldCard = old.sink(named: previous.sinkName)?.cardName
            if let oldCard, new.sink(named: current.sinkName)?.cardName == oldCard { return change(.override) }
            return change(.oldDeviceUnavailable)
        }
        if !oldSinkNames.contains(current.sinkName) { return change(.newDeviceAvailable) }
        return change(.override)
    }

    /// Why a sink switched ports. A jack changes two availabilities at once (plugging
    /// headphones in also marks a laptop's speaker port unavailable), so the port that went
    /// to or from a definite "yes" tells what was plugged or unplugged.
    private static func portSwitchReason(old: SoundServerFacts, new: SoundServerFacts, from oldPortName: String?,
                                         to newPortName: String?, on sinkName: String) -> Reason {
        func availability(_ facts: SoundServerFacts, _ port: String?) -> PortFacts.Availability? {
            facts.sink(named: sinkName)?.ports.first { $0.name == port }?.availability
        }
        let oldPortBefore = availability(old, oldPortName), oldPortNow = availability(new, oldPortName)
        let newPortBefore = availability(old, newPortName), newPortNow = availability(new, newPortName)
        if oldPortBefore == .yes, oldPortNow == .no || oldPortNow == nil { return .oldDeviceUnavailable }
        if newPortBefore == .no, newPortNow == .yes { return .newDeviceAvailable }
        if oldPortNow == .no || oldPortNow == nil { return .oldDeviceUnavailable }
        if newPortBefore == .no, newPortNow != .no { return .newDeviceAvailable }
        return .override
    }
}

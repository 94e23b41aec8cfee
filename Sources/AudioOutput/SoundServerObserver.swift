import PulseKit
import PlayerCore

/// Reads what the sound server says about its devices and streams and reports it as
/// `SoundServerFacts` whenever that changed: each sink described as a route (`SinkReading`,
/// `PortClassification`), so PlayerCore never sees the server's codes. It only reports;
/// PlayerCore decides what a change means (route change, interruption).
///
/// Why re-read everything instead of applying each event: the server sends a burst of events for
/// one change (unloading a sink: server, sink, sink-input change, sink remove), and a full
/// snapshot after the burst is both simpler and consistent. A burst is coalesced by a zero-delay
/// timer: every event of one loop iteration lands before it fires, so a burst costs one query
/// (six requests answered in one round trip, ~1 ms). Events arriving while a query is in
/// flight mark it stale, and one more query follows when it completes.
///
/// Loop thread / mainloop lock only, like every libpulse object; hence `@unchecked Sendable`.
final class SoundServerObserver: @unchecked Sendable {
    private var timer: MainloopTimer?
    private let ourStream: () -> Stream?
    private let report: (SoundServerFacts) -> Void

    private var context: Context?
    private var queryInFlight = false
    /// Something changed after the query in flight was sent: query again when it completes.
    private var stale = false
    /// Bumped when the context goes away, so replies of a dead context are ignored.
    private var generation = 0
    /// The facts last reported; nil before the first report on the current context.
    private(set) var lastReported: SoundServerFacts?

    /// - Parameters:
    ///   - ourStream: the output's playback stream, if any (its sink is `ourSinkName`, and it is
    ///     never counted as a phone stream).
    ///   - report: called on the loop thread with facts that differ from the last ones.
    init(mainloop: ThreadedMainloop, ourStream: @escaping () -> Stream?,
         report: @escaping (SoundServerFacts) -> Void) throws(PulseError) {
        self.ourStream = ourStream
        self.report = report
        timer = try MainloopTimer(mainloop: mainloop) { [weak self] in self?.query() }
    }

    /// The context became ready: report its facts once (even if equal to the previous
    /// connection's: the app learns that the server it talks to now looks like this).
    func attach(_ context: Context) {
        detach()
        self.context = context
        refreshSoon()
    }

    /// The context failed or we shut down: forget it and any query in flight.
    func detach() {
        generation += 1
        context = nil
        queryInFlight = false
        stale = false
        lastReported = nil
        timer?.cancel()
    }

    /// Frees the timer; called once at shutdown with the lock held.
    func shutDown() {
        detach()
        timer = nil
    }

    /// Something may have changed: re-read the server after the current burst of events.
    func refreshSoon() {
        guard context != nil else { return }
        timer?.schedule(after: 0)
    }

    // MARK: Querying

    /// The six replies of one query, filled in as they arrive.
    private final class Snapshot {
        var server: ServerInfo??
        var sinks: [SinkInfo]??
        var cards: [CardInfo]??
        var sources: [SourceInfo]??
        var sinkInputs: [SinkInputInfo]??
        var sourceOutputs: [SourceOutputInfo]??
        var isComplete: Bool {
            server != nil && sinks != nil && cards != nil && sources != nil && sinkInputs != nil
                && sourceOutputs != nil
        }
    }

    private func query() {
        guard let context, context.state == .ready else { return }
        guard !queryInFlight else {
            stale = true
            return
        }
        queryInFlight = true
        stale = false
        let generation = self.generation
        let snapshot = Snapshot()
        // Replies come in request order; `arrived` checks completeness anyway, whichever is last.
        let arrived: () -> Void = { [weak self] in
            guard let self, generation == self.generation, snapshot.isComplete else { return }
            self.completed(snapshot)
        }
        do throws(PulseError) {
            try context.serverInfo { snapshot.server = .some($0); arrived() }
            try context.sinks { snapshot.sinks = .some($0); arrived() }
            try context.cards { snapshot.cards = .some($0); arrived() }
            try context.sources { snapshot.sources = .some($0); arrived() }
            try context.sinkInputs { snapshot.sinkInputs = .some($0); arrived() }
            try context.sourceOutputs { snapshot.sourceOutputs = .some($0); arrived() }
        } catch {
            // Only fails while the context dies; its state change detaches us.
            queryInFlight = false
        }
    }

    private func completed(_ snapshot: Snapshot) {
        queryInFlight = false
        // A request that failed (nil) leaves nothing consistent to report: wait for the next.
        if let server = snapshot.server ?? nil, let sinks = snapshot.sinks ?? nil,
           let cards = snapshot.cards ?? nil, let sources = snapshot.sources ?? nil,
           let sinkInputs = snapshot.sinkInputs ?? nil, let sourceOutputs = snapshot.sourceOutputs ?? nil {
            let facts = Self.facts(server: server, sinks: sinks, cards: cards, sources: sources,
                                   sinkInputs: sinkInputs, sourceOutputs: sourceOutputs, ourStream: ourStream())
            if facts != lastReported {
                lastReported = facts
                report(facts)
            }
        }
        if stale { query() }
    }

    // MARK: Translating

    static let phoneRole = "phone"

    /// Builds the facts from one snapshot of the server.
    static func facts(server: ServerInfo, sinks: [SinkInfo], cards: [CardInfo], sources: [SourceInfo],
                      sinkInputs: [SinkInputInfo], sourceOutputs: [SourceOutputInfo],
                      ourStream: Stream?) -> SoundServerFacts {
        let ourIndex = ourStream?.index
        // The sink-input list is from the same moment as the sink list. The stream's own idea
        // (updated by move notifications) covers a stream newer than the snapshot, and the
        // moment on PipeWire when our sink is already gone from the list but our stream has not
        // been moved yet: then ourSinkName names a sink that is not in `sinks` (the truth: we
        // have just lost our device), and the next report, ~1 ms later, names the new sink.
        let ourSinkName: String?
        if let ourIndex, let input = sinkInputs.first(where: { $0.index == ourIndex }),
           let sink = sinks.first(where: { $0.index == input.sinkIndex }) {
            ourSinkName = sink.name
        } else {
            ourSinkName = ourStream?.deviceName
        }
        let phoneStreams = sinkInputs.filter { $0.index != ourIndex && $0.properties[Proplist.Key.mediaRole] == phoneRole }.count
            + sourceOutputs.filter { $0.properties[Proplist.Key.mediaRole] == phoneRole }.count
        let cardsByIndex = Dictionary(cards.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a })
        let capturing = cardsInCapture(sources: sources, sourceOutputs: sourceOutputs)
        return SoundServerFacts(
            sinks: sinks.map { reading(of: $0, cardsByIndex: cardsByIndex, capturing: capturing).described },
            defaultSinkName: server.defaultSinkName,
            ourSinkName: ourSinkName,
            phoneStreamCount: phoneStreams,
            otherStreams: otherStreams(sinkInputs.filter { $0.index != ourIndex },
                                       sinkNames: Dictionary(sinks.map { ($0.index, $0.name) }, uniquingKeysWith: { a, _ in a })))
    }

    /// The other programs' playback streams, with what ties each to its player. The process id
    /// is PipeWire's record of the client's socket credentials where there is one (true even
    /// for a Flatpak app, whose own claim is a PID in its sandbox), else the client's own claim;
    /// read as a number only when it is a plain positive one.
    static func otherStreams(_ inputs: [SinkInputInfo], sinkNames: [UInt32: String]) -> [PlaybackStreamFacts] {
        inputs.map { input in
            let properties = input.properties
            let pid = (properties[Proplist.Key.securePID] ?? properties[Proplist.Key.applicationProcessID])
                .flatMap { Int32($0) }.flatMap { $0 > 0 ? $0 : nil }
            return PlaybackStreamFacts(index: input.index, sinkName: sinkNames[input.sinkIndex], processID: pid,
                                       processBinary: properties[Proplist.Key.applicationProcessBinary],
                                       applicationName: properties[Proplist.Key.applicationName],
                                       appID: properties[Proplist.Key.portalAppID],
                                       role: properties[Proplist.Key.mediaRole])
        }
    }
}

extension SoundServerObserver {
    /// The indices of the cards some capture stream records from now: each source output's
    /// source, that source's card.
    ///
    /// Every source output counts, corked ones too (a call that holds its microphone stream
    /// corked is still a call; switching its headset away from the call profile would break
    /// it). Not counted: recordings of a sink's monitor (a level meter, a screen recorder),
    /// which belong to the card but do not use its microphone, and streams whose source is
    /// not in the list (it went away between the replies).
    static func cardsInCapture(sources: [SourceInfo], sourceOutputs: [SourceOutputInfo]) -> Set<UInt32> {
        let cardOfSource = Dictionary(
            sources.compactMap { source in
                source.monitorOfSinkIndex == nil ? source.cardIndex.map { (source.index, $0) } : nil
            },
            uniquingKeysWith: { a, _ in a })
        return Set(sourceOutputs.compactMap { cardOfSource[$0.sourceIndex] })
    }
}

extension SoundServerObserver {
    /// The sink as the server states it, before it is described for PlayerCore. A card index
    /// missing from the card list (a card removed between the replies) reads as no card: nil
    /// name, no profiles.
    static func reading(of sink: SinkInfo, cardsByIndex: [UInt32: CardInfo], capturing: Set<UInt32>) -> SinkReading {
        let card = sink.cardIndex.flatMap { cardsByIndex[$0] }
        var reading = SinkReading(name: sink.name, description: sink.description,
                                  formFactor: sink.properties[Proplist.Key.deviceFormFactor],
                                  bus: sink.properties[Proplist.Key.deviceBus],
                                  api: sink.properties[Proplist.Key.deviceAPI],
                                  cardProfile: card?.activeProfileName,
                                  ports: sink.ports.map(SinkReading.Port.init),
                                  activePortName: sink.activePortName)
        reading.cardName = card?.name
        reading.cardProfiles = card?.availableProfileNames ?? []
        reading.cardCaptureInUse = card.map { capturing.contains($0.index) } ?? false
        return reading
    }
}

extension SinkReading.Port {
    init(_ port: SinkInfo.Port) {
        let availability: PortFacts.Availability = switch port.availability {
        case .yes: .yes
        case .no: .no
        case .unknown: .unknown
        }
        self.init(name: port.name, description: port.description, typeCode: Int(port.type), availability: availability)
    }
}

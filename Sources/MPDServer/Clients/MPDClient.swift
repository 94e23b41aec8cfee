import Dispatch
import MPDProtocol
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One connected MPD client: its socket, its lines in, its answers out, and what mpd keeps per
/// client (`src/client/Client.hxx`): permissions, the tags it wants, its binary limit, its idle
/// subscriptions and the changes it has not been told about yet.
///
/// Everything runs on the MPD queue. Commands run one at a time, in order; while one waits (for
/// the player, a file), the client's next lines wait in its input, and past `inputLimit` the
/// socket is not read (the client is slowed, never buffered without bound). Answers are written
/// without blocking; a long one is produced as the client reads it (`ResponseProducer`).
///
/// The queue is every client's: a client's work is done in turns of at most `turnBudget`, after
/// which the rest (of a command list, of the lines read) waits for its next turn, behind what the
/// other clients asked meanwhile. One client's 2 MiB list of searches delays the others by a
/// turn, not by the whole list.
final class MPDClient {
    let number: Int
    let isLocal: Bool
    private let socket: ConnectedSocket
    private unowned let server: MPDServer
    private let readSource: DispatchSourceRead
    private let writeSource: DispatchSourceWrite
    private var writing = false

    var permissions: MPDPermissions
    var tags = ResponseWriter.allTags
    var binaryLimit = 8192
    /// Changes since this client last heard of them (mpd's `idle_flags`).
    private var pendingChanges: IdleSubsystems = []
    /// What an `idle` in progress waits for; nil when not idling.
    private(set) var idleSubscriptions: IdleSubsystems?
    /// When the client last sent or took something (for the timeout).
    private(set) var lastActivity: DispatchTime = .now()

    private var input: [UInt8] = []
    private var reader: CommandReader
    private var output = OutputBuffer()
    private var producer: (any ResponseProducer)?
    private var running: (batch: CommandBatch, index: Int)?
    /// `runCommands` is on the stack: a command finishing inside it only moves the batch on.
    private var insideRun = false
    /// The batch's current command answers later (the player, the files queue): nothing may
    /// run the batch on until it has. A turn scheduled before it began (`yieldTurn`) ran it a
    /// second time — an `addid` added its song twice, seen under the sanitizers' slow turns.
    private var awaitingAnswer = false
    /// Answers gather while commands run in one go and leave in one write when they are done,
    /// as mpd's output buffer does. Written apart, an answer and its `OK` are two TCP segments,
    /// and the second waits for the client's delayed ACK of the first (Nagle): measured,
    /// 44 ms a `status`, `albumart` chunk or any other answer with lines, against mpd's 0.3 ms.
    private var gathering = false
    private(set) var isClosed = false
    /// Close once what was written has gone out (`close`, a fatal error).
    private var closeWhenFlushed = false

    /// Input kept while a command runs, at most: a client that sends faster than it reads
    /// answers waits for the socket.
    static let inputLimit = 64 * 1024
    /// A long answer is produced while less than this waits to be written.
    static let producerMark = 128 * 1024
    /// How long one client's commands may hold the MPD queue before the others get their turn
    /// (a single command runs to its end, however long it takes).
    static let turnBudget: UInt64 = 5_000_000  // ns

    /// When this client's current turn on the queue began (`beginTurn`).
    private var turnStarted: UInt64 = 0
    /// A later turn is already scheduled (`yieldTurn`).
    private var turnScheduled = false

    init(number: Int, socket: ConnectedSocket, isLocal: Bool, permissions: MPDPermissions, server: MPDServer) {
        self.number = number
        self.socket = socket
        self.isLocal = isLocal
        self.permissions = permissions
        self.server = server
        reader = CommandReader()
        readSource = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: server.queue)
        writeSource = DispatchSource.makeWriteSource(fileDescriptor: socket.descriptor, queue: server.queue)
    }

    func start() {
        // The socket is closed once both sources are cancelled (never while one may still read
        // or write it); the handlers outlive the client, so they hold the socket, not it.
        let cancelled = CancelCount()
        let finish: () -> Void = { [socket] in
            cancelled.count += 1
            if cancelled.count == 2 { socket.close() }
        }
        readSource.setEventHandler { [weak self] in self?.readAvailable() }
        readSource.setCancelHandler(handler: finish)
        writeSource.setEventHandler { [weak self] in
            self?.beginTurn()
            self?.flush()
        }
        writeSource.setCancelHandler(handler: finish)
        readSource.resume()
        send(Array(ResponseWriter.greeting.utf8))
    }

    // MARK: Input

    private var readingSuspended = false

    private func readAvailable() {
        beginTurn()
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        // Reading stops at the end of the turn too (the source fires again, after the others),
        // and while more than `inputLimit` waits to be run.
        while !isClosed, !turnIsOver, input.count <= Self.inputLimit {
            let result = chunk.withUnsafeMutableBytes { socket.read(into: $0) }
            switch result {
            case .bytes(let count):
                lastActivity = .now()
                input.append(contentsOf: chunk[..<count])
                processInput()
                if input.count > Self.inputLimit, !isClosed { return suspendReading() }
            case .wouldBlock:
                return
            case .endOfStream, .failed:
                return close()
            }
        }
    }

    private func suspendReading() {
        guard !readingSuspended else { return }
        readingSuspended = true
        readSource.suspend()
    }

    /// Reading goes on once what waits is run — not before: lines are run in turns, and a
    /// client that sends faster than its lines run would otherwise fill the input.
    private func resumeReading() {
        guard readingSuspended, !isClosed, input.count <= Self.inputLimit else { return }
        readingSuspended = false
        readSource.resume()
    }

    /// Takes complete lines from the input while no command runs; reading goes on once they
    /// are taken (whoever called: a command that answered late, a later turn).
    private func processInput() {
        var start = 0
        defer {
            if start > 0 { input.removeFirst(start) }
            if running == nil, producer == nil { resumeReading() }
        }
        while !isClosed, running == nil, producer == nil {
            if turnIsOver { return yieldTurn() }
            guard let newline = input[start...].firstIndex(of: UInt8(ascii: "\n")) else {
                // mpd's input buffer: a line longer than it closes the client.
                if input.count - start >= CommandReader.maximumLineLength { close() }
                return
            }
            let line = input[start..<newline]
            start = newline + 1
            if line.count + 1 > CommandReader.maximumLineLength { return close() }
            handle(line: line)
        }
    }

    private func handle(line: ArraySlice<UInt8>) {
        switch reader.read(line, idling: idleSubscriptions != nil) {
        case .gathering:
            break
        case .noidle:
            guard idleSubscriptions != nil else { return }
            idleSubscriptions = nil
            pendingChanges = []
            send(Array("OK\n".utf8))
        case .close(let reason):
            server.log(.debug, "MPD client \(number) closed: \(reason)")
            close()
        case .run(let batch):
            running = (batch, 0)
            runCommands()
        }
    }

    // MARK: Commands

    /// Runs the batch's commands from where it is, one after the other; a command that answers
    /// later continues from its completion.
    private func runCommands() {
        guard !insideRun else { return }
        insideRun = true
        gathering = true
        defer {
            insideRun = false
            gathering = false
            flush()
        }
        while let (batch, index) = running, producer == nil, !awaitingAnswer, !isClosed {
            // The batch's end first: its OK leaves in the same write as the last answer, even
            // when the turn is over (a slow turn under a sanitizer split them into two writes).
            guard index < batch.count else {
                running = nil
                send(Array("OK\n".utf8))
                break
            }
            if turnIsOver {
                yieldTurn()
                return
            }
            let name: String
            let command: MPDCommand
            do throws(MPDError) {
                let request = try batch[index].request()
                name = request.name
                command = try MPDCommand(request, permissions: permissions)
            } catch {
                fail(error, at: index)
                break
            }
            if case .idle(let subsystems) = command {
                // An idle ends the batch without an OK: its answer is the changes.
                running = nil
                startIdle(subsystems)
                break
            }
            var answered: CommandOutcome?
            var waiting = true
            server.run(command, for: self) { [weak self] outcome in
                guard let self, !self.isClosed else { return }
                if waiting {
                    answered = outcome
                } else {
                    self.awaitingAnswer = false
                    self.beginTurn()
                    // Gathered with what follows (the batch's OK): one write, as in a turn.
                    self.gathering = true
                    self.finish(outcome, name: name, at: index)
                    self.continueBatch()
                    self.gathering = false
                    self.flush()
                }
            }
            waiting = false
            guard let outcome = answered else {  // answers later
                awaitingAnswer = true
                return
            }
            finish(outcome, name: name, at: index)
            if producer != nil { return }
        }
        if running == nil, producer == nil { resumeReading() }
    }

    private func finish(_ outcome: CommandOutcome, name: String, at index: Int) {
        guard let (batch, _) = running else { return }
        switch outcome {
        case .answer(let writer):
            send(writer.bytes)
            advance(batch, from: index)
        case .stream(let stream):
            producer = stream
            if fill() { advance(batch, from: index) }
            flush()
        case .failure(let error):
            fail(error.command.isEmpty ? error.withCommand(name) : error, at: index)
        case .close:
            running = nil
            closeWhenFlushed = true
            flush()
        }
    }

    private func advance(_ batch: CommandBatch, from index: Int) {
        if batch.sendsListOK { send(Array("list_OK\n".utf8)) }
        running = (batch, index + 1)
    }

    private func fail(_ error: MPDError, at index: Int) {
        running = nil
        var writer = ResponseWriter()
        writer.ack(error, listIndex: index)
        send(writer.bytes)
        if error.closesConnection {
            closeWhenFlushed = true
            flush()
        }
    }

    /// Produces more of a long answer while little waits to be written; true once it is all
    /// produced (the caller then goes on with the batch). Writing is `flush`'s.
    private func fill() -> Bool {
        while var stream = producer, output.count < Self.producerMark, !isClosed {
            var writer = ResponseWriter()
            let done = stream.produce(into: &writer, budget: 64 * 1024)
            producer = done ? nil : stream
            output.append(writer.bytes)
        }
        return producer == nil && !isClosed
    }

    /// A long answer that was written as the client read it is complete: on with the batch.
    private func streamFinished() {
        guard let (batch, index) = running else { return }
        advance(batch, from: index)
        continueBatch()
    }

    /// After a command that finished later than it began: the batch goes on, then the input.
    private func continueBatch() {
        guard !insideRun else { return }
        runCommands()
        processInput()
    }

    // MARK: Turns

    private func beginTurn() {
        turnStarted = DispatchTime.now().uptimeNanoseconds
    }

    private var turnIsOver: Bool {
        DispatchTime.now().uptimeNanoseconds &- turnStarted > Self.turnBudget
    }

    /// The rest of this client's work (its batch, then its input) waits for a later turn,
    /// behind whatever the queue holds now.
    private func yieldTurn() {
        guard !turnScheduled, !isClosed else { return }
        turnScheduled = true
        let handle = WeakClient(self)
        server.queue.async {
            guard let self = handle.client, !self.isClosed else { return }
            self.turnScheduled = false
            self.beginTurn()
            self.continueBatch()
            if self.running == nil, self.producer == nil { self.resumeReading() }
        }
    }

    // MARK: Idle

    private func startIdle(_ subsystems: IdleSubsystems) {
        idleSubscriptions = subsystems
        if !pendingChanges.intersection(subsystems).isEmpty { answerIdle() }
        resumeReading()
    }

    /// Something changed: an idling client that waits for it hears of it now, the others at
    /// their next `idle`.
    func notify(_ changes: IdleSubsystems) {
        guard !isClosed, !changes.isEmpty else { return }
        pendingChanges.formUnion(changes)
        if let subscriptions = idleSubscriptions, !pendingChanges.intersection(subscriptions).isEmpty { answerIdle() }
    }

    private func answerIdle() {
        guard let subscriptions = idleSubscriptions else { return }
        var writer = ResponseWriter()
        writer.changes(pendingChanges.intersection(subscriptions))
        writer.ok()
        pendingChanges = []
        idleSubscriptions = nil
        lastActivity = .now()
        send(writer.bytes)
    }

    // MARK: Output

    private func send(_ bytes: [UInt8]) {
        guard !isClosed, !bytes.isEmpty else { return }
        output.append(bytes)
        if !gathering { flush() }
        // A client that reads nothing while answers pile up (mpd's max_output_buffer_size).
        if output.count > server.settings.outputLimit {
            server.log(.notice, "MPD client \(number) closed: it does not read its answers")
            close()
        }
    }

    /// Writes what the socket takes now; goes on producing a long answer as it drains; waits
    /// for the socket (the write source) when it is full.
    private func flush() {
        while !isClosed {
            let ok = output.drain { bytes in
                switch socket.write(bytes) {
                case .wrote(let count):
                    if count > 0 { lastActivity = .now() }
                    return count
                case .wouldBlock: return 0
                case .failed: return nil
                }
            }
            guard ok else { return close() }
            guard output.isEmpty else {
                if !writing { writing = true; writeSource.resume() }
                return
            }
            if writing { writing = false; writeSource.suspend() }
            if closeWhenFlushed { return close() }
            guard producer != nil else { return }
            if turnIsOver {
                // A fast reader of a long answer: the rest is produced in later turns (the
                // write source fires again at once, behind the other clients).
                if !writing { writing = true; writeSource.resume() }
                return
            }
            if fill() {
                flushThenContinue()
                return
            }
        }
    }

    /// The last part of a long answer is produced: write it, then on with the batch.
    private func flushThenContinue() {
        flush()
        if !isClosed { streamFinished() }
    }

    // MARK: Closing

    func close() {
        guard !isClosed else { return }
        isClosed = true
        running = nil
        producer = nil
        if readingSuspended { readingSuspended = false; readSource.resume() }
        if !writing { writing = true; writeSource.resume() }
        readSource.cancel()
        writeSource.cancel()
        server.clientClosed(self)
    }

    /// Closes a client silent longer than `timeout`, unless it waits in `idle`.
    func closeIfSilent(for timeout: Double, now: DispatchTime) {
        guard idleSubscriptions == nil, !isClosed else { return }
        let silent = Double(now.uptimeNanoseconds &- lastActivity.uptimeNanoseconds) / 1e9
        if silent > timeout {
            server.log(.info, "MPD client \(number) closed: silent for \(Int(silent)) s")
            close()
        }
    }
}

/// A client handed to a later turn of the MPD queue (its only queue: the closure runs there).
private struct WeakClient: @unchecked Sendable {
    weak var client: MPDClient?
    init(_ client: MPDClient) { self.client = client }
}

/// How many of a client's two sources are cancelled (used on the MPD queue only).
private final class CancelCount {
    var count = 0
}

import Foundation
import XCTest
@testable import TestSupport

/// The helpers of OtherPlayersGuardTests: starting the daemons, players and calls, waiting for
/// calls and decisions. Waits are longer under the sanitizers (`AUBADE_SANITIZER`), where the
/// daemon runs several times slower.
extension OtherPlayersGuardTests {
    /// 4 under a sanitizer, else 1: what every timeout is multiplied by.
    static let slowdown: Double = ProcessInfo.processInfo.environment["AUBADE_SANITIZER"] == nil ? 1 : 4

    /// `aubade serve EXTRA…` with no tracks: Stopped, so its own session category touches nobody.
    @discardableResult
    func serve(_ extra: [String] = [], environment: [String: String] = [:]) throws -> Daemon {
        try startDaemon(extra, environment: environment)
    }

    /// `aubade guard ARGUMENTS`, waited for until it owns org.aubade.Guard; stopped after the test.
    func startGuard(_ arguments: [String] = []) throws -> GuardDaemon {
        let guardian = try GuardDaemon(arguments)
        guards.append(guardian)
        try guardian.waitForBusName()
        return guardian
    }

    func guardMonitor(_ guardian: GuardDaemon) throws -> SignalMonitor {
        let monitor = try SignalMonitor(sender: guardian.uniqueName)
        guardMonitors.append(monitor)
        return monitor
    }

    /// Starts the players at once and waits until each owns its name and plays its stream.
    func startPlayers(_ options: ProcessMPRISPlayer.Options...) throws -> [ProcessMPRISPlayer] {
        let started = try ProcessMPRISPlayer.start(options)
        players += started
        return started
    }

    /// Waits until OtherStreams ties each player's stream (by its PID) to the player; returns
    /// the entries by bus name.
    @discardableResult
    func waitUntilMapped(_ players: [ProcessMPRISPlayer], on endpoint: GuardEndpoint = .serve, timeout: TimeInterval = 5,
                                 file: StaticString = #filePath, line: UInt = #line) throws -> [String: OtherStream] {
        var found: [String: OtherStream] = [:]
        var last: [OtherStream] = []
        try eventually("every player's stream in OtherStreams of \(endpoint) (last seen: \(last); players: \(players))",
                       timeout: timeout * Self.slowdown, file: file, line: line) {
            last = try endpoint.otherStreams()
            found = [:]
            for player in players where player.options.stream != .none {
                found[player.busName] = last.first { $0.processID == player.streamPID && $0.player == player.busName }
            }
            return found.count == players.filter { $0.options.stream != .none }.count
        }
        return found
    }

    /// Waits for `member` among the player's transport calls after `mark`; returns it.
    @discardableResult
    func waitForCall(_ member: String, on player: ProcessMPRISPlayer, after mark: Int = 0, _ why: String = "",
                             timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line)
        throws -> ProcessMPRISPlayer.Call {
        var found: ProcessMPRISPlayer.Call?
        try eventually("\(member) on \(player.busName) \(why) (\(player))", timeout: timeout * Self.slowdown,
                       file: file, line: line) {
            found = player.transportCalls(after: mark).first { $0.member == member }
            return found != nil
        }
        return found!
    }

    func waitForPlayerStatus(_ player: ProcessMPRISPlayer, _ status: String, timeout: TimeInterval = 5,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        try eventually("\(player.busName) \(status) (\(player))", timeout: timeout * Self.slowdown, file: file, line: line) {
            player.playbackStatus == status
        }
    }

    /// The guard's decisions after `mark`.
    func decisions(on monitor: SignalMonitor, from endpoint: GuardEndpoint = .serve, after mark: Int) -> [GuardDecision] {
        monitor.messages.dropFirst(mark).compactMap { $0.guardDecision(from: endpoint) }
    }

    /// Waits for a decision after `mark` satisfying `predicate`; fails, listing those seen, if none comes.
    @discardableResult
    func waitForDecision(on monitor: SignalMonitor, from endpoint: GuardEndpoint = .serve, after mark: Int,
                                 _ what: String, timeout: TimeInterval = 5, file: StaticString = #filePath, line: UInt = #line,
                                 where predicate: @escaping (GuardDecision) -> Bool) -> GuardDecision? {
        let message = monitor.waitForMessage(after: mark, timeout: timeout * Self.slowdown) {
            $0.guardDecision(from: endpoint).map(predicate) ?? false
        }
        guard let decision = message?.guardDecision(from: endpoint) else {
            XCTFail("no OtherPlayerDecision (\(what)) from \(endpoint) within \(timeout * Self.slowdown) s; decisions seen: "
                    + "\(decisions(on: monitor, from: endpoint, after: mark))", file: file, line: line)
            return nil
        }
        return decision
    }

    /// Lets `seconds` pass (twice that under a sanitizer), so that a call that should not come
    /// has had the time to.
    func settle(_ seconds: TimeInterval) {
        Thread.sleep(forTimeInterval: Self.slowdown > 1 ? seconds * 2 : seconds)
    }

    // MARK: Calls and sleep

    /// A phone call that lasts until `endCall`: paplay of a 20 s tone with media.role=phone.
    func startCall() throws -> Subprocess {
        let call = try Subprocess("paplay", ["--property=media.role=phone", "--property=application.name=Phone call",
                                             try PhoneCall.longWav().path])
        processes.append(call)
        try eventually("the call's stream (paplay pid \(call.pid))", timeout: 5 * Self.slowdown) {
            guard call.isRunning else { throw DaemonError("paplay exited: \(call.stderr.text)") }
            return try Pulse.sinkInput(ofProcess: call.pid) != nil
        }
        return call
    }

    /// Hangs up: paplay stopped by PID, and its stream gone from the server.
    func endCall(_ call: Subprocess) throws {
        call.stop(signal: SIGTERM, grace: 2)
        try eventually("the call's stream gone", timeout: 5 * Self.slowdown) { try Pulse.sinkInput(ofProcess: call.pid) == nil }
    }

    /// A stand-in system bus for `FakeLogind`, stopped after the test.
    func startSystemBus() throws -> String {
        let (bus, address) = try StandInSystemBus.start()
        systemBus = bus
        return address
    }
}

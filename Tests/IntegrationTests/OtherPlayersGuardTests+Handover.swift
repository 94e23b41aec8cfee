import Foundation
import XCTest
@testable import TestSupport

/// One guard at a time: `aubade guard` started beside `aubade serve` (both guard by default)
/// waits for org.aubade.Guard while serve holds it — a player gets one Pause, not two — and
/// takes over when serve stops.
extension OtherPlayersGuardTests {
    func testTheGuardAloneWaitsForServeAndTakesOverWhenItStops() throws {
        let daemon = try serve()
        let first = try startPlayers(.init(name: "handoverfirst"))[0]
        let guardian = try GuardDaemon()
        guards.append(guardian)
        try eventually("aubade guard waiting for \(GuardEndpoint.alone.destination) (stderr: \(guardian.stderrLines))",
                       timeout: 10 * Self.slowdown) {
            guardian.stderrLines.contains { $0.contains("waiting to take over") }
        }
        try waitUntilMapped([first])
        let serveSignals = try monitor(daemon)
        let mark = serveSignals.mark

        try Pulse.unloadNullSink("headphones")

        try waitForCall("Pause", on: first, "after the first unplug")
        _ = waitForDecision(on: serveSignals, after: mark, "aubade serve's pause of \(first.busName)") {
            $0.action == "pause" && $0.player == first.busName
        }
        settle(1)
        XCTAssertEqual(first.transportCalls.map(\.member), ["Pause"], "one guard, one Pause: \(first)")
        XCTAssertFalse(guardian.stderrLines.contains { $0.contains("guard: paused") },
                       "the waiting guard acted too: \(guardian.stderrLines)")

        // serve stops: the guard alone owns the name and guards.
        try Pulse.restoreStandardSinks()
        daemon.stop()
        try guardian.waitForBusName()
        try eventually("the guard taking over (stderr: \(guardian.stderrLines))", timeout: 5 * Self.slowdown) {
            guardian.stderrLines.contains { $0.contains("guarding the other players now") }
        }
        let second = try startPlayers(.init(name: "handoversecond"))[0]
        try waitUntilMapped([second], on: .alone)

        try Pulse.unloadNullSink("headphones")

        try waitForCall("Pause", on: second, "after the second unplug, from aubade guard")
        settle(0.5)
        XCTAssertEqual(second.transportCalls.map(\.member), ["Pause"], "\(second)")
        XCTAssertTrue(guardian.isRunning)
    }
}

import DBusKit
import Testing
@testable import MPRIS
import PlayerCore

@Suite struct AudioSessionPropertiesTests {
    let headphones = AudioRoute(portType: .headphones, sinkName: "headphones", description: "Headphones")

    private func snapshot(route: AudioRoute? = nil, reason: PauseReason = .none) -> PlayerSnapshot {
        PlayerSnapshot(status: .paused, loopStatus: .none, shuffle: false, volume: 1, current: nil,
                       canGoNext: false, canGoPrevious: false, canPlay: true, canPause: true, canSeek: true,
                       route: route, pauseReason: reason)
    }

    @Test func routeLeavesUnknownKeysOut() {
        let value = AudioSessionProperties.routeValue(headphones)
        #expect(value.signature == "a{sv}")
        #expect(value.asVardict?["portType"] == .string("headphones"))
        #expect(value.asVardict?["portName"] == nil)
        #expect(AudioSessionProperties.routeValue(nil).asVardict?.isEmpty == true)
    }

    @Test func changesAreAnnouncedPerProperty() {
        let changes = AudioSessionProperties.changes(from: snapshot(), to: snapshot(route: headphones, reason: .routeChange))
        #expect(changes.map(\.0) == ["CurrentRoute", "PauseReason"])
    }

    @Test func policyWrites() throws {
        let policy = AudioSessionPolicy()
        #expect(try AudioSessionProperties.policy(setting: "ResumeOnReconnect", to: .boolean(true), in: policy).resumeOnReconnect)
        #expect(try AudioSessionProperties.policy(setting: "ReconnectWindow", to: .double(5), in: policy).reconnectWindow == 5_000_000)
        #expect(throws: DBusError.self) { try AudioSessionProperties.policy(setting: "ReconnectWindow", to: .double(-1), in: policy) }
        #expect(throws: DBusError.self) { try AudioSessionProperties.policy(setting: "PauseReason", to: .string("none"), in: policy) }
        #expect(throws: DBusError.self) { try AudioSessionProperties.policy(setting: "PauseOnRouteLoss", to: .string("yes"), in: policy) }
    }
}

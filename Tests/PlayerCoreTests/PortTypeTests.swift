@testable import PlayerCore
import Testing

/// Which kinds of output are private listening (their loss pauses). The classification of the
/// server's devices into these is AudioOutput's (its PortClassificationTests).
@Suite struct PortTypeTests {
    /// Fixed: kept for the cases that name it (AudioOutputTests' PortClassificationTests holds
    /// the classification itself).
    static let analogTypeWins = """
        PulseAudio ≥ 14 types the generic `analog-output` path ANALOG (22), the type every \
        USB sound card gets; ANALOG says nothing about the device and falls through to the \
        form factor and bus.
        """

    static let privateListening: [PortType: Bool] = [
        .builtInSpeaker: false, .headphones: true, .headset: true, .bluetoothA2DP: true, .bluetoothHFP: true,
        .usbAudio: true, .hdmi: false, .lineOut: false, .carAudio: true, .unknown: false, .networkStream: false,
    ]

    @Test(arguments: PortType.allCases)
    func isPrivateListening(_ type: PortType) {
        #expect(type.isPrivateListening == Self.privateListening[type])
    }

    @Test func theRouteIsMadeOfTheDescription() {
        let bluetooth = BluetoothFacts(profile: "a2dp_sink", isCallProfile: false)
        let sink = SinkFacts(name: "bluez_sink.x", description: "Headset", portType: .bluetoothA2DP, bus: "bluetooth",
                             ports: [PortFacts(name: "headset-output", description: "Headset port")],
                             activePortName: "headset-output", bluetooth: bluetooth)
        #expect(AudioRoute(sink: sink) == AudioRoute(portType: .bluetoothA2DP, sinkName: "bluez_sink.x", portName: "headset-output",
                                                     description: "Headset port", bus: "bluetooth", bluetoothProfile: "a2dp_sink"))
    }
}

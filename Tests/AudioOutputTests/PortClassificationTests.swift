@testable import AudioOutput
import PlayerCore
import Testing

/// `PortType(reading:)` on sinks as the server states them, and the route description made of
/// them (moved from PlayerCore, which no longer reads the server's codes).
@Suite struct PortClassificationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var sink: SinkReading
        var expected: PortType
        var knownIssue: String? = nil
        var testDescription: String { "\(name) → \(expected)" }
    }

    static let analogTypeWins = """
        PulseAudio ≥ 14 types the generic `analog-output` path ANALOG (22), the type every \
        USB sound card gets; the classifier maps it to lineOut and ranks the port type above \
        the sink's form factor and bus, so a USB headset or DAC is lineOut (not private \
        listening: unplugging it while playing does not pause). ANALOG says nothing about the \
        device and should fall through to the form factor and bus.
        """

    static let cases: [Case] = [
        // A laptop's analog sink: port types (PulseAudio ≥ 14).
        Case(name: "laptop, speaker port (type 2)", sink: Readings.laptop(.speaker, .unplugged), expected: .builtInSpeaker),
        Case(name: "laptop, headphones port (type 3)", sink: Readings.laptop(.headphones, .plugged), expected: .headphones),
        Case(name: "laptop, speaker chosen while headphones are in", sink: Readings.laptop(.speaker, .plugged),
             expected: .builtInSpeaker),
        // The same without port types (older PulseAudio): the port names decide.
        Case(name: "laptop untyped, analog-output-speaker", sink: Readings.laptop(.speaker, .unplugged, typed: false),
             expected: .builtInSpeaker),
        Case(name: "laptop untyped, analog-output-headphones", sink: Readings.laptop(.headphones, .plugged, typed: false),
             expected: .headphones),
        Case(name: "laptop HDMI sink (hdmi-output-0, type 10)", sink: Readings.hdmi, expected: .hdmi),

        // Bluetooth: the card profile decides between music and call profiles.
        Case(name: "Bluetooth headset, a2dp_sink", sink: Readings.bluetoothHeadset(profile: "a2dp_sink"), expected: .bluetoothA2DP),
        Case(name: "Bluetooth headset, headset_head_unit", sink: Readings.bluetoothHeadset(profile: "headset_head_unit"),
             expected: .bluetoothHFP),
        Case(name: "Bluetooth headset, handsfree_head_unit", sink: Readings.bluetoothHeadset(profile: "handsfree_head_unit"),
             expected: .bluetoothHFP),
        Case(name: "Bluetooth headphones (port type 3), a2dp_sink", sink: Readings.bluetoothHeadphones, expected: .bluetoothA2DP),
        Case(name: "Bluetooth car kit (form factor car)", sink: Readings.carKit, expected: .carAudio),
        Case(name: "PipeWire Bluetooth, a2dp-sink", sink: Readings.pipewireHeadset(profile: "a2dp-sink"), expected: .bluetoothA2DP),
        Case(name: "PipeWire Bluetooth, headset-head-unit", sink: Readings.pipewireHeadset(profile: "headset-head-unit"),
             expected: .bluetoothHFP),

        // USB.
        Case(name: "USB headset (form factor headset, analog-output type 22)", sink: Readings.usbHeadset(),
             expected: .headset, knownIssue: analogTypeWins),
        Case(name: "USB headset, untyped analog-output (PulseAudio < 14)", sink: Readings.usbHeadset(typed: false),
             expected: .headset),
        Case(name: "USB DAC (no form factor, analog-output type 22)", sink: Readings.usbDAC(), expected: .usbAudio,
             knownIssue: analogTypeWins),
        Case(name: "USB DAC (no form factor, no ports)", sink: Readings.usbDAC(withPort: false), expected: .usbAudio),

        // Null sinks as the integration tests load them: only the form factor.
        Case(name: "null sink, form factor headphone",
             sink: Readings.null("headphones", formFactor: "headphone", description: "Headphones"), expected: .headphones),
        Case(name: "null sink, form factor speaker",
             sink: Readings.null("speakers", formFactor: "speaker", description: "Speakers"), expected: .builtInSpeaker),
        Case(name: "null sink, nothing said", sink: Readings.null("dummy", formFactor: nil, description: "Null Output"),
             expected: .unknown),
    ]

    @Test(arguments: cases)
    func classify(_ c: Case) {
        expecting(knownIssue: c.knownIssue) {
            #expect(PortType(reading: c.sink) == c.expected)
            #expect(c.sink.described.portType == c.expected)
        }
        // The route carries the classification and, for Bluetooth only, the card profile.
        let route = AudioRoute(sink: c.sink.described)
        #expect(route.sinkName == c.sink.name)
        #expect(route.portName == c.sink.activePortName)
        #expect(route.bluetoothProfile == (c.sink.bus == "bluetooth" ? c.sink.cardProfile : nil))
        #expect(route.description == (c.sink.activePort?.description ?? c.sink.description))
    }

}

/// Runs `body`; `reason` names a problem that was once known there (kept for the record).
func expecting(knownIssue reason: String?, _ body: () -> Void) {
    body()
}

import DBusKit

/// What bluetoothd (BlueZ 5.66, profiles/audio/media.c) accepts from a registered player: its
/// `parse_player_properties` and `parse_player_metadata`, as checks. A wrong type fails
/// RegisterPlayer or drops the change; a false CanPlay/CanPause/CanGoNext/CanGoPrevious or
/// CanControl makes bluetoothd refuse that AVRCP command before it reaches the player.
enum BlueZPlayerRules {
    /// Why bluetoothd would refuse these player properties (empty: it takes them all).
    static func problems(in properties: [String: DBusKit.DBusValue], isRegistration: Bool = false) -> [String] {
        var problems: [String] = []
        func expect(_ name: String, _ signature: String, in values: [String: DBusKit.DBusValue], required: Bool = false) {
            guard let value = values[name] else {
                if required { problems.append("\(name) missing") }
                return
            }
            if value.signature != signature { problems.append("\(name) is \(value.signature), not \(signature)") }
        }
        expect("PlaybackStatus", "s", in: properties, required: isRegistration)
        expect("Position", "x", in: properties, required: isRegistration)
        expect("Shuffle", "b", in: properties)
        expect("LoopStatus", "s", in: properties)
        if let loop = properties["LoopStatus"]?.asString, !["None", "Track", "Playlist"].contains(loop) {
            problems.append("LoopStatus \(loop) is none of None, Track, Playlist")
        }
        for flag in ["CanPlay", "CanPause", "CanGoNext", "CanGoPrevious", "CanControl"] {
            expect(flag, "b", in: properties, required: isRegistration)
        }
        if let metadata = properties["Metadata"] {
            guard let fields = metadata.asVardict, metadata.signature == "a{sv}" else {
                return problems + ["Metadata is \(metadata.signature), not a{sv}"]
            }
            expect("xesam:title", "s", in: fields)
            expect("xesam:album", "s", in: fields)
            expect("mpris:length", "x", in: fields)
            expect("xesam:trackNumber", "i", in: fields)
            for list in ["xesam:artist", "xesam:genre"] {
                expect(list, "as", in: fields)
            }
        } else if isRegistration {
            problems.append("Metadata missing")
        }
        return problems
    }
}

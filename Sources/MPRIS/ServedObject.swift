/// The two objects `MPRISService` answers on, each with the interfaces it carries besides the
/// standard Properties and Introspectable.
enum ServedObject: Sendable {
    /// `/org/mpris/MediaPlayer2`: MPRIS's four interfaces, and nothing else (clients such as
    /// playerctld treat anything else there as fatal).
    case mpris
    /// `/org/aubade/Player`: Aubade's own interfaces (audio session, queue).
    case aubade

    var path: String {
        switch self {
        case .mpris: MPRISNames.objectPath
        case .aubade: MPRISNames.aubadePlayerPath
        }
    }

    /// The object's own interfaces, in the order a call without an interface tries them.
    var interfaces: [String] {
        switch self {
        case .mpris: [MPRISNames.playerInterface, MPRISNames.rootInterface, MPRISNames.trackListInterface,
                      MPRISNames.playlistsInterface]
        case .aubade: [MPRISNames.audioSessionInterface, QueueInterface.name]
        }
    }

    /// Every interface a call may name here.
    var knownInterfaces: [String] {
        interfaces + [MPRISNames.propertiesInterface, MPRISNames.introspectableInterface]
    }

    /// The object that carries `interface`'s signals.
    static func carrying(_ interface: String) -> ServedObject {
        ServedObject.aubade.interfaces.contains(interface) ? .aubade : .mpris
    }
}

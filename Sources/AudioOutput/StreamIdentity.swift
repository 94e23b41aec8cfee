/// How the daemon presents itself to the sound server (client and stream properties).
///
/// The stream's `media.role` is always `music`: that is what lets role-cork policies pause
/// us for a phone call and volume UIs group us with other players.
public struct StreamIdentity: Sendable, Equatable {
    /// `application.name`, shown by pavucontrol ("Aubade").
    public var applicationName: String
    /// `application.id`, e.g. "org.aubade.Aubade".
    public var applicationID: String
    /// `application.icon_name`, an icon theme name.
    public var iconName: String
    /// `media.role`.
    public var mediaRole: String { "music" }

    public init(applicationName: String = "Aubade", applicationID: String = "org.aubade.Aubade",
                iconName: String = "audio-x-generic") {
        self.applicationName = applicationName
        self.applicationID = applicationID
        self.iconName = iconName
    }
}

/// Aubade's own queue methods beside MPRIS (MPRIS has no way to clear the tracklist or save
/// it): `org.aubade.Queue1`, see dbus/org.aubade.Queue1.xml.
public enum QueueInterface {
    public static let name = "org.aubade.Queue1"
}

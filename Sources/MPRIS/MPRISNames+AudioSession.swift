extension MPRISNames {
    /// Aubade's own interface: the audio session (route, pause reason, policy).
    public static let audioSessionInterface = "org.aubade.AudioSession1"
    /// Where Aubade's own interfaces live (`org.aubade.AudioSession1`, `org.aubade.Queue1`), on
    /// the same connection and bus name as the player, beside `/org/aubade/Guard`. Never on
    /// `/org/mpris/MediaPlayer2`: real clients read every PropertiesChanged there as MPRIS, and
    /// playerctld (playerctl 2.4.1) aborts on one for an interface it does not know.
    public static let aubadePlayerPath = "/org/aubade/Player"
}

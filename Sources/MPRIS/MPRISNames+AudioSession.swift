extension MPRISNames {
    /// Aubade's own interface beside MPRIS: the audio session (route, pause reason, policy).
    public static let audioSessionInterface = "org.aubade.AudioSession1"
}

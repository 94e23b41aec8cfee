/// `aubade status`'s words for why the player is paused (org.aubade.AudioSession1.PauseReason).
enum PauseReasonText {
    /// nil for "none" and "user": a person's pause needs no explanation.
    static func describe(_ reason: String) -> String? {
        switch reason {
        case "routeChange": "because the headphones (or another private device) went away"
        case "interruption": "for a call; resumes when it ends"
        case "sleep": "for the system's sleep"
        case "otherPlayer": "while another player plays; resumes when it stops"
        case "noSoundServer": "— no sound server; resumes where it stopped when the server is back"
        case "streamLost": "— the sound server keeps dropping the stream; Play to try again"
        default: nil
        }
    }
}

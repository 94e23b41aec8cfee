import Configuration

/// What each verb does, for `aubade --help`, `aubade help VERB` and `aubade VERB --help`.
struct VerbHelp {
    let verb: String
    let synopsis: String
    let description: String

    static let all: [VerbHelp] = [
        VerbHelp(verb: "serve", synopsis: "serve [--config FILE] [--volume V] [--log-level LEVEL] [PATH…]", description: """
            Run the music service in the foreground: own org.mpris.MediaPlayer2.aubade on the
            session bus and play PATHs (MP3, FLAC, Ogg Vorbis and Opus files, folders, M3U/M3U8/PLS playlists) and URLs
            (http(s) stations and their playlists). Without them it puts back the queue and
            position of the last run, paused. Control it with playerctl -p aubade, media keys,
            or any MPRIS client. SIGHUP reloads the configuration; SIGTERM and SIGINT stop it,
            saving its state.
            """),
        VerbHelp(verb: "guard", synopsis: "guard [--config FILE] [--log-level LEVEL] [--resume-on-reconnect]", description: """
            The audio session for the other MPRIS players, without playing anything: when the
            headphones (or a Bluetooth or USB device) go away, players whose stream played
            there get Pause; a call pauses every playing player and gives Play back afterwards
            to those nobody touched; sleep pauses them all. Only players a stream can be tied
            to (by process, parent process, program name or Flatpak id) are touched, only with
            Pause when they play. Owns org.aubade.Guard; aubade serve does the same unless
            guard-other-players = false. Reads the same configuration file as serve.
            """),
        VerbHelp(verb: "status", synopsis: "status [--json]", description: """
            What plays: title — artist, position / length, state, route, and a station's
            connection. --json prints the same as one JSON object, for scripts.
            """),
        VerbHelp(verb: "queue", synopsis: "queue", description: "The queue, numbered; ▶ marks the current track."),
        VerbHelp(verb: "add", synopsis: "add PATH|URL…", description: "Add files, folders, playlists or station URLs at the end of the queue."),
        VerbHelp(verb: "remove", synopsis: "remove N", description: "Remove entry N (as numbered by `aubade queue`)."),
        VerbHelp(verb: "clear", synopsis: "clear", description: "Stop and empty the queue."),
        VerbHelp(verb: "save", synopsis: "save NAME", description: "Save the queue as the playlist NAME (NAME.m3u8 in the playlists folder)."),
        VerbHelp(verb: "playlists", synopsis: "playlists", description: "List the saved playlists."),
        VerbHelp(verb: "load", synopsis: "load NAME", description: "Replace the queue with the playlist NAME and play it."),
        VerbHelp(verb: "route", synopsis: "route [--all]", description: """
            Where the music goes now: the output's kind, name, port and bus. --all adds every
            other playback stream, where it plays and which MPRIS player it belongs to.
            """),
        VerbHelp(verb: "web", synopsis: "web [--config FILE]", description: """
            The address of the page for a phone or a browser, and — when it is served beyond
            this machine (http-address = any) — its token in the address, with a QR code to
            scan with the phone. Anyone with that address can control Aubade.
            """),
        VerbHelp(verb: "monitor", synopsis: "monitor", description: """
            Print, live, every remote command the service receives, every route change and
            interruption, and each change of playback status, one line each with a time.
            """),
        VerbHelp(verb: "decode", synopsis: "decode FILE… > OUT", description: """
            Decode files as the service would (the format told by the content) to standard
            output: raw signed 16-bit PCM, native endian, interleaved; a line per file (format,
            rate, channels, length) on standard error. `> /dev/null` checks that a file plays.
            """),
        VerbHelp(verb: "snapcast-control", synopsis: "snapcast-control [--stream=NAME]", description: """
            Snapcast's stream plugin for aubade's stream: snapserver runs it (controlscript= on
            the stream, through the link aubade-snapcast that make install puts beside aubade)
            and speaks JSON-RPC lines on its stdin and stdout. Every Snapcast client then shows
            the title, artist, album, cover, length and position, and its play, pause, next,
            previous, seek, volume, loop and shuffle reach aubade over MPRIS.
            """),
        VerbHelp(verb: "help", synopsis: "help [VERB]", description: "This text, or one verb's."),
    ]

    static func named(_ verb: String) -> VerbHelp? { all.first { $0.verb == verb } }

    /// The whole usage text.
    static var usage: String {
        let width = all.map(\.verb.count).max() ?? 0
        var text = "usage: aubade VERB [ARGUMENTS]    (aubade --version; aubade help VERB)\n\n"
        for help in all {
            let lines = help.description.split(separator: "\n", omittingEmptySubsequences: false)
            let first = lines.first.map(String.init) ?? ""
            text += "  " + help.verb + String(repeating: " ", count: width - help.verb.count + 2) + first + "\n"
            for line in lines.dropFirst() { text += String(repeating: " ", count: width + 4) + line + "\n" }
        }
        text += "\nExit codes: 0 ok, 1 failure, 64 usage."
        return text
    }

    /// One verb's text; `serve` adds the configuration file's keys.
    var text: String {
        var text = "usage: aubade \(synopsis)\n\n\(description)"
        if verb == "serve" || verb == "guard" {
            text += "\n\nConfiguration: \(Settings.defaultPath(environment: Environment.current())) "
                + "(command-line flags override it)\n\(Settings.documentation)"
        }
        return text
    }
}

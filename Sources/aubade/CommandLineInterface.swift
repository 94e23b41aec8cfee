import Dispatch
import Glibc
import Configuration
import Library
import PlayerCore

/// Parses the command line and runs a verb. Exit codes: 0 ok, 1 failure, 64 usage.
enum CommandLineInterface {
    static let version = "0.1.0"

    static let usage = """
        usage: aubade serve [--config FILE] [--volume V] [--log-level LEVEL] [PATH…]
               aubade status | queue | route | monitor | playlists
               aubade add PATH… | remove N | clear | save NAME | load NAME
               aubade --help | --version

        serve   Run the music service in the foreground: own org.mpris.MediaPlayer2.aubade on
                the session bus and play PATHs (MP3 files, folders, M3U/M3U8 playlists).
                Control it with playerctl -p aubade, media keys, or any MPRIS client.

        status     What plays: title — artist, position / length, state, route.
        queue      The queue, numbered; ▶ marks the current track.
        add        Add files, folders or playlists at the end of the queue.
        remove N   Remove entry N (as numbered by `aubade queue`).
        clear      Stop and empty the queue.
        save NAME  Save the queue as the playlist NAME (an M3U8 file in the playlists folder).
        playlists  List the saved playlists.
        load NAME  Replace the queue with the playlist NAME and play it.
        monitor Print, live, every remote command the service receives, every route change
                and interruption, and each change of playback status, one line each with a time.
        route   Print where the music goes now: the output's kind, name, port and bus.

        `aubade serve --help` lists the options and the configuration file's keys.
        """

    static func run(_ arguments: [String]) -> Int32 {
        guard let verb = arguments.first else {
            printError(usage)
            return 64
        }
        let rest = Array(arguments.dropFirst())
        switch verb {
        case "--help", "-h", "help":
            print(usage)
            return 0
        case "--version":
            print("aubade \(version)")
            return 0
        case "serve":
            return serve(rest)
        case "monitor":
            guard rest.isEmpty else {
                printError("aubade monitor: takes no arguments")
                return 64
            }
            return Monitor.run()
        case _ where ClientVerbs.names.contains(verb):
            return ClientVerbs.run(verb, rest)
        default:
            printError("aubade: unknown verb '\(verb)'\n\(usage)")
            return 64
        }
    }

    private static func serve(_ arguments: [String]) -> Int32 {
        let loaded: (settings: Settings, flags: ServeFlags, file: String)
        do throws(ConfigurationError) {
            loaded = try Settings.load(commandLine: arguments)
        } catch {
            printError("aubade serve: \(error.description)")
            return error.isUsageError ? 64 : 1
        }
        if loaded.flags.help {
            print(usage)
            print("\nconfiguration (\(loaded.file); flags override it):\n\(Settings.documentation)")
            return 0
        }
        Log.threshold = loaded.settings.logLevel
        return Server.run(paths: loaded.flags.operands, settings: loaded.settings, volumeFlag: loaded.flags.volume,
                          reload: { () throws(ConfigurationError) in try Settings.load(commandLine: arguments).settings })
    }

    static func printError(_ text: String) {
        writeToStandardError("\(text)\n")
    }
}

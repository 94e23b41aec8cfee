import Dispatch
import Glibc
import Configuration
import Library
import PlayerCore

/// Parses the command line and runs a verb. Exit codes: 0 ok, 1 failure, 64 usage.
enum CommandLineInterface {
    static let version = "0.1.0"

    static var usage: String { VerbHelp.usage }

    static func run(_ arguments: [String]) -> Int32 {
        guard let verb = arguments.first else {
            printError(usage)
            return 64
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h"), let help = VerbHelp.named(verb) {
            print(help.text)
            return 0
        }
        switch verb {
        case "--help", "-h":
            print(usage)
            return 0
        case "help":
            guard let name = rest.first else {
                print(usage)
                return 0
            }
            guard rest.count == 1, let help = VerbHelp.named(name) else {
                printError("aubade help: no verb '\(rest.joined(separator: " "))'\n\(usage)")
                return 64
            }
            print(help.text)
            return 0
        case "--version":
            print("aubade \(version)")
            return 0
        case "serve":
            return serve(rest)
        case "decode":
            return DecodeVerb.run(rest)
        case "guard":
            return GuardService.run(rest)
        case "snapcast-control":
            return SnapcastControlVerb.run(rest)
        case "web":
            return WebVerb.run(rest)
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
        if loaded.flags.help, let help = VerbHelp.named("serve") {
            print(help.text)
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

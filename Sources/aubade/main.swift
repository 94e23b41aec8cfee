import Dispatch
import Glibc
import Library

/// The `aubade` command: `aubade serve` runs the daemon; other verbs talk to it.
let arguments = Array(CommandLine.arguments.dropFirst())
exit(CommandLineInterface.run(arguments))

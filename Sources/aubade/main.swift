import Dispatch
import Glibc
import Library

/// The `aubade` command: `aubade serve` runs the daemon; other verbs talk to it.
let arguments = Array(CommandLine.arguments.dropFirst())
// snapserver's controlscript= runs a program with no verb: the link `aubade-snapcast` is the verb.
if let program = CommandLine.arguments.first?.split(separator: "/").last, program == SnapcastControlVerb.programName {
    exit(SnapcastControlVerb.run(arguments))
}
exit(CommandLineInterface.run(arguments))

/// One row of the command table: a command's name, the permission it needs and how many
/// arguments it takes (mpd's `struct command` in `AllCommands.cxx`).
public struct CommandSpec: Sendable, Hashable {
    public let name: String
    /// Every one of these bits must be granted (none for `ping`, `password`, `close`…).
    public let permission: MPDPermissions
    /// The fewest arguments; nil: mpd does not count them at all (`close`, `kill`).
    public let minimumArguments: Int?
    /// The most arguments; nil: no limit (the tokenizer's 63 still applies).
    public let maximumArguments: Int?

    init(_ name: String, _ permission: MPDPermissions, _ minimum: Int?, _ maximum: Int?) {
        self.name = name
        self.permission = permission
        self.minimumArguments = minimum
        self.maximumArguments = maximum
    }

    /// mpd's `command_check_request`: the permission first, then the count, with its messages.
    func check(argumentCount count: Int, permissions: MPDPermissions) throws(MPDError) {
        guard permissions.isSuperset(of: permission) else {
            throw MPDError(.permission, "you don't have permission for \"\(name)\"", command: name)
        }
        guard let minimum = minimumArguments else { return }
        if minimum == maximumArguments, count != minimum {
            throw MPDError(.argument, "wrong number of arguments for \"\(name)\"", command: name)
        }
        if count < minimum {
            throw MPDError(.argument, "too few arguments for \"\(name)\"", command: name)
        }
        if let maximum = maximumArguments, count > maximum {
            throw MPDError(.argument, "too many arguments for \"\(name)\"", command: name)
        }
    }
}

/// How Aubade answers otherwise than mpd 0.23.12, each with its reason: what it serves, what it
/// is made of (outputs, decoders, URL handlers), its error messages, and the few places where
/// mpd 0.23 itself goes wrong.
extension KnownDifferences {
    static let protocolRows: [KnownDifference] = [
        unservedCommands, urlHandlers, decoders, outputNames, regexMessages, listFilesErrors,
        storedPlaylistOrder, hiddenPlaylistNames, noChangeEdits, crossfade,
    ]

    /// mpd's commands Aubade does not serve, with why: a client sees "unknown command", as from
    /// an mpd built without them. (`searchcount` is mpd 0.24: unknown to both.)
    static let unserved: [String: String] = [
        "sticker": "no sticker database", "config": "no one music_directory to tell (several music folders)",
        "partition": "one player, one partition", "newpartition": "one player, one partition",
        "delpartition": "one player, one partition", "moveoutput": "one player, one partition",
        "mount": "no storage plug-ins: the music folders are local", "unmount": "no storage plug-ins",
        "listmounts": "no storage plug-ins", "outputset": "no output attributes to set",
        "subscribe": "no messages between clients", "unsubscribe": "no messages between clients",
        "channels": "no messages between clients", "readmessages": "no messages between clients",
        "sendmessage": "no messages between clients",
        "addtagid": "a song's tags are its file's", "cleartagid": "a song's tags are its file's",
        "rangeid": "no parts of songs", "mixrampdb": "no MixRamp: songs join gaplessly, never overlap",
        "mixrampdelay": "no MixRamp", "readcomments": "no raw comments of a file",
        "getfingerprint": "no Chromaprint", "searchaddpl": "not served yet",
        "clearerror": "Aubade's status carries no error to clear",
    ]

    static let unservedCommands = KnownDifference(
        name: "commands Aubade does not serve",
        reason: "Aubade serves a music player's and a library's commands; mpd's others (\(unserved.count), each with "
            + "its reason in KnownDifferences.unserved) are unknown commands, as on an mpd built without them. "
            + "Mapped: those names out of mpd's commands/notcommands, and mpd's answer to one of them taken as "
            + "\"unknown command\"") { exchange in
        if exchange.command == "commands" || exchange.command == "notcommands" {
            let kept = exchange.mpd.filter { line in
                !(line.hasPrefix("command: ") && unserved[String(line.dropFirst("command: ".count))] != nil)
            }
            guard kept != exchange.mpd else { return false }
            exchange.mpd = kept
            return true
        }
        guard exchange.sent.count == 1, unserved[exchange.command] != nil else { return false }
        exchange.mpd = ["ACK [5@0] {} unknown command \"\(exchange.command)\""]
        return true
    }

    static let urlHandlers = KnownDifference(
        name: "URL handlers",
        reason: "mpd lists the URL schemes of its input plug-ins (27 here: ftp, nfs, smb, rtsp…); Aubade plays "
            + "http and https stations. Mapped: Aubade's must be among mpd's") { exchange in
        guard exchange.command == "urlhandlers", exchange.mpd != exchange.aubade,
              Set(exchange.aubade).isSubset(of: Set(exchange.mpd)) else { return false }
        exchange.mpd = exchange.aubade
        return true
    }

    static let decoders = KnownDifference(
        name: "decoder plug-ins",
        reason: "each server lists its own decoders (mpd 25 plug-ins, Aubade its 5 libraries). Mapped: every "
            + "suffix Aubade decodes must be one mpd decodes") { exchange in
        guard exchange.command == "decoders", exchange.mpd != exchange.aubade else { return false }
        func suffixes(_ lines: [String]) -> Set<String> { Set(lines.filter { $0.hasPrefix("suffix: ") }) }
        guard suffixes(exchange.aubade).isSubset(of: suffixes(exchange.mpd)), exchange.aubade.last == "OK" else { return false }
        exchange.mpd = exchange.aubade
        return true
    }

    static let outputNames = KnownDifference(
        name: "the output's name",
        reason: "each server names its outputs: mpd's here is its configuration's null output, Aubade's the one it "
            + "plays to (PulseAudio, or Snapcast). Mapped: the name and plug-in; id and enabled compared") { exchange in
        guard exchange.command == "outputs" else { return false }
        var changed = false
        for index in exchange.mpd.indices where index < exchange.aubade.count {
            for key in ["outputname: ", "plugin: "] where exchange.mpd[index].hasPrefix(key)
                && exchange.aubade[index].hasPrefix(key) && exchange.mpd[index] != exchange.aubade[index] {
                exchange.mpd[index] = exchange.aubade[index]
                changed = true
            }
        }
        return changed
    }

    static let regexMessages = KnownDifference(
        name: "regular expression errors",
        reason: "mpd's regular expressions are PCRE's and so are its messages (\"at offset 1: missing closing "
            + "parenthesis\"); Aubade has an engine of its own (MusicDatabase's Pike VM). Mapped: the ACK's code "
            + "and text up to \"Error in regex\"") { exchange in
        let prefix = { (line: String) in line.range(of: "Error in regex").map { String(line[..<$0.upperBound]) } }
        guard let mine = exchange.mpd.last.flatMap(prefix), let theirs = exchange.aubade.last.flatMap(prefix),
              mine == theirs, exchange.mpd.last != exchange.aubade.last else { return false }
        exchange.mpd[exchange.mpd.count - 1] = exchange.aubade[exchange.aubade.count - 1]
        return true
    }

    static let listFilesErrors = KnownDifference(
        name: "listfiles outside the library",
        reason: "mpd 0.23.12 lists what is above its music folder for listfiles .. (the URI is not checked: the "
            + "test's own files showed), and answers a missing folder with ACK 52 and the server's absolute path; "
            + "Aubade answers both ACK 50 No such directory, as lsinfo does. Mapped: mpd's answer taken as that") { exchange in
        guard exchange.command == "listfiles", exchange.sent.count == 1,
              exchange.sent[0] == "listfiles .." || exchange.mpd.last?.hasPrefix("ACK [52@0] {listfiles} Failed to open") == true
        else { return false }
        exchange.mpd = ["ACK [50@0] {listfiles} No such directory"]
        return true
    }

    static let storedPlaylistOrder = KnownDifference(
        name: "the order of listplaylists",
        reason: "mpd lists its stored playlists in the order the file system returns them (readdir); Aubade in the "
            + "order they were made, its MPRIS Playlists' user order. Neither is an order a client can rely on. "
            + "Mapped: both sorted by name") { exchange in
        guard exchange.command == "listplaylists" else { return false }
        func sorted(_ lines: [String]) -> [String] {
            var entries: [[String]] = []
            for line in lines.dropLast() {
                if line.hasPrefix("playlist: ") || entries.isEmpty { entries.append([line]) } else { entries[entries.count - 1].append(line) }
            }
            return entries.sorted { $0[0] < $1[0] }.flatMap { $0 } + [lines.last ?? "OK"]
        }
        let (mine, theirs) = (sorted(exchange.mpd), sorted(exchange.aubade))
        guard exchange.mpd != exchange.aubade, mine != exchange.mpd || theirs != exchange.aubade else { return false }
        (exchange.mpd, exchange.aubade) = (mine, theirs)
        return true
    }

    static let hiddenPlaylistNames = KnownDifference(
        name: "a stored playlist named with a leading dot",
        reason: "mpd saves \".hidden\" (its names only exclude '/' and line ends); Aubade's playlists folder is the "
            + "one MPRIS and aubade save share, which skip hidden files, so it refuses the name (Bad playlist "
            + "name) rather than save a playlist no one lists. Mapped: mpd's save and rm of it taken as refused") { exchange in
        guard ["save", "rm"].contains(exchange.command), exchange.sent == ["\(exchange.command) \".hidden\""] else { return false }
        exchange.mpd = ["ACK [2@0] {\(exchange.command)} Bad playlist name"]
        return true
    }

    /// A command list of edits that change nothing, then status.
    static let noChangeEditsLines = ["command_list_begin", "swap 0 0", "prio 0 1", "status", "command_list_end"]

    static let noChangeEdits = KnownDifference(
        name: "a new queue version for no change",
        reason: "mpd gives the queue a new version for every swap and priority command, even one that changes "
            + "nothing (a song swapped with itself, the priority it has); Aubade's version moves when the queue "
            + "changes. Mapped: mpd's version after such a list taken back by its two empty edits") { exchange in
        guard exchange.sent == noChangeEditsLines,
              let index = exchange.mpd.firstIndex(where: { $0.hasPrefix("playlist: ") }),
              let version = Int(exchange.mpd[index].dropFirst("playlist: ".count)) else { return false }
        exchange.mpd[index] = "playlist: \(version - 2)"
        return true
    }

    static let crossfade = KnownDifference(
        name: "no cross-fade",
        reason: "Aubade never overlaps songs (it joins them gaplessly), so it refuses crossfade N > 0 rather than "
            + "claim an xfade it does not do; crossfade 0 is OK on both. Mapped: mpd's OK to crossfade 5 taken as "
            + "Aubade's refusal (the corpus sets crossfade 0 again at once)") { exchange in
        guard exchange.sent == ["crossfade 5"], exchange.mpd == ["OK"] else { return false }
        exchange.mpd = ["ACK [2@0] {crossfade} Aubade does not cross-fade: its tracks join without a gap"]
        return true
    }
}

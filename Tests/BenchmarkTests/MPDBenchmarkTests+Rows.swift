import Foundation

extension MPDBenchmarkTests {
    /// The rows of the library part, in the order of the table, with how each is measured.
    static func defineRows(_ table: inout MPDTable, facts: MPDLibraryFixture.Facts, wakeups: Int, runs: Int) {
        let n = facts.count
        table.row("cold", "library built from cold (no database, page cache dropped)", unit: "s", goal: .atMostColumn("mpd"),
                  how: "`sync; echo 3 > /proc/sys/vm/drop_caches`, no database. Aubade: from its spawn (`aubade serve --music-folder "
                  + "LIB --mpd-address 127.0.0.1 --mpd-port P`, private HOME, its saved queue empty) to the `changed: database` after "
                  + "which `stats` counts all \(n) songs (an MPD client connected as soon as the port answers, `stats`, then `idle "
                  + "database` until the count is complete: the first scan is published whole, at its end). mpd: `update` sent "
                  + "(mpd already running on an empty database: one it wrote on an empty folder, since an mpd with no database "
                  + "file starts an update by itself) to the `changed: update` after which `status` has no `updating_db` (what "
                  + "`mpc -w update` waits for).")
        table.row("coldCPU", "CPU time of that build (user + system)", unit: "s",
                  how: "utime + stime from /proc/PID/stat: Aubade's whole process from its start, mpd's growth during the update.")
        table.row("coldRead", "bytes read from the disk during that build (MB)", unit: "MB",
                  how: "`read_bytes` of /proc/PID/io (what the process made the kernel fetch from the disk): Aubade since its start "
                  + "(its binary included), mpd's growth during the update.")
        table.row("hwmBuilt", "peak RSS with the library built", unit: "MB", goal: .atMostColumn("mpd"),
                  how: "VmHWM of /proc/PID/status once the build is done and the server quiet (Aubade has saved its database).")
        for (key, label) in [("search", "`search any \"\(facts.searchWord.lowercased())\"` (\(facts.searchMatches) of \(n) titles)"),
                             ("find", "`find album \"\(facts.album)\"` (\(facts.albumTracks) songs)"),
                             ("list", "`list album group albumartist`"),
                             ("lsinfo", "`lsinfo \"\(facts.bigFolder)\"` (a folder of \(facts.bigFolderFiles) files)")] {
            table.row(key, label, unit: "ms", goal: .atMostColumn("mpd"),
                      how: "Median (min–max) of \(runs) runs, the servers taking turns (who goes first alternates), each on a "
                      + "connection of its own kept open: from just before the command is written to the read that completes its "
                      + "`OK`; the answer's size beside it.")
        }
        table.row("listallinfo", "`listallinfo`, the whole library", unit: "ms",
                  how: "As the queries; the whole answer read as fast as the client can (25 MB for Aubade). mpd builds its answer in "
                  + "its output buffer and closes the connection past `max_output_buffer_size` (8 MiB): said with the bytes it "
                  + "sent before closing, not as a time.")
        table.row("hwmQueries", "peak RSS after the queries", unit: "MB", goal: .atMostColumn("mpd"),
                  how: "VmHWM after every query above was run \(runs) times.")
        table.row("rssQueries", "RSS after the queries", unit: "MB", how: "VmRSS at the same moment.")
        table.row("updateAll", "`update` after one file is retagged", unit: "ms", goal: .atMostColumn("mpd"),
                  how: "One file of an album gets a new title (mutagen's output written over it in place: open, truncate, write, "
                  + "close; the same size), then at once `update` (the whole library) to the `changed: update` after which `status` "
                  + "no longer shows that job; then `lsinfo` of the file must show the new title. Aubade first, then mpd, the same "
                  + "change; \(runs) changes, a second apart at least (mpd compares whole seconds).")
        table.row("updateFolder", "`update \"\(facts.retagFolder)\"` after one file there is retagged", unit: "ms",
                  goal: .atMostColumn("mpd"), how: "As the row above, with the file's folder as the URI.")
        table.row("inotify", "a file retagged, no command: written → `changed: database`, new title served", unit: "ms",
                  how: "Aubade watches its folders (inotify) and rescans a changed folder 1 s (its debounce) after the first event: "
                  + "from the write's close to `changed: database` at a client idling on `database` (the new title then checked "
                  + "with `lsinfo`). \(runs) changes. mpd runs with `auto_update \"no\"` here, so it has no such path.")
        table.row("wakeMPRIS", "MPRIS PlayPause → `changed: player` at an idling MPD client", unit: "ms", goal: .atMost(1),
                  showP90: true,
                  how: "The 10-minute single playing (`add`, `play`); a client idling on `player` (its `idle player` sent, 30 ms "
                  + "later checked to be still waiting); PlayPause sent on the session bus by a libdbus client in the benchmark, "
                  + "without waiting for its reply; timed from just before the send to the read of `changed: player` + `OK`. "
                  + "\(wakeups) toggles, 100 ms apart. mpd has no MPRIS of its own (mpDris2 is another process).")
        table.row("wakeMPD", "`pause` on one MPD connection → `changed: player` on another", unit: "ms",
                  goal: .atMost(1), showP90: true,
                  how: "As the row above, the toggle being `pause 1` / `pause 0` written on a second connection of the same server "
                  + "(its OK read afterwards). The same for both; \(wakeups) toggles each, interleaved with the row above.")
        table.row("warm", "started again from its database, page cache dropped: start → every song served", unit: "ms",
                  how: "The server stopped (SIGTERM) and started again with the same HOME / db_file, after `drop_caches`: from the "
                  + "spawn to `stats` counting all \(n) songs. Aubade serves its saved database at once, then checks every file "
                  + "against the disk (next row); mpd reads its database before it serves.")
        table.row("warmChecked", "… Aubade's check of every file against the disk done", unit: "s",
                  how: "From the same spawn until the process used no CPU for a second (sampled every 200 ms), less that second.")
        table.row("warmHWM", "peak RSS started from its database", unit: "MB", goal: .atMostColumn("mpd"),
                  how: "VmHWM once that start is over and the server quiet.")
    }
}

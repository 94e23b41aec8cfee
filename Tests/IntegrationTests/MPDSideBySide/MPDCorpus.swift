/// The corpus sent to mpd and Aubade alike, by part (each a file of its own): the library, the
/// protocol and the connection, the queue and the player, the stored playlists.
enum MPDCorpus {
    /// Everything but `kill`, which the test sends last. The protocol part comes before the
    /// queue's: its idle, permissions and local-file clients leave the queue empty again.
    static var all: [SideBySideStep] { library + protocolParts + queue + playlists }
}

import MPDProtocol
import PlayerCore
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `lsinfo` and `listfiles` of a path outside the library, as mpd 0.23 answers them: for a
/// client over TCP, "Access denied" (mpd's rule for files of the machine); for a local client
/// (the Unix socket), `listfiles` of a folder and `lsinfo` of one song file, by its absolute
/// path ("No such file" for anything else). Read on the files queue.
extension MPDServer {
    /// An absolute path or a `file://` URI (but `lsinfo /`, which mpd takes as the root).
    static func isLocalPath(_ uri: String) -> Bool {
        (uri.hasPrefix("/") && uri != "/") || uri.lowercased().hasPrefix("file://")
    }

    func localListing(_ command: MPDCommand, _ uri: String, for client: MPDClient, tags: Set<TagKind>,
                      reply: @escaping Reply) {
        guard client.isLocal else { return reply(.failure(MPDError(.permission, "Access denied"))) }
        guard let path = realFile(of: uri, for: client) else { return reply(.failure(MPDError(.noExist, "No such file"))) }
        if case .listFiles = command {
            let box = UncheckedBox(reply)
            files.async { [queue] in
                let outcome = UncheckedBox(Self.listing(of: path))
                queue.async { box.value(outcome.value) }
            }
            return
        }
        let box = UncheckedBox(reply)
        files.async { [queue, frontEnd] in
            let version = FileSystemCheck.regularFileVersion(path)
            let modified = Self.modificationTime(of: path)
            queue.async {
                guard version != nil else { return box.value(.failure(MPDError(.noExist, "No such file"))) }
                frontEnd.loadTracks(forURI: FileURI.uri(for: path)) { result in
                    guard case .success(let tracks) = result, tracks.count == 1, let track = tracks.first,
                          track.path == path else {
                        return box.value(.failure(MPDError(.noExist, "No such file")))
                    }
                    let songTags = TagKind.allCases.flatMap { kind in track.values(of: kind).map { TagValue(kind, $0) } }
                    let info = SongInfo(uri: path.displayString, lastModified: modified, audioFormat: track.audioFormat,
                                        tags: songTags, duration: track.length)
                    var writer = ResponseWriter()
                    writer.song(info, tags: tags)
                    box.value(.answer(writer))
                }
            }
        }
    }

    private static func modificationTime(of path: FilePath) -> Int64? {
        var info = stat()
        guard path.withCString({ stat($0, &info) }) == 0 else { return nil }
        return Int64(info.st_mtim.tv_sec)
    }
}

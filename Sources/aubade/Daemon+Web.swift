import Configuration
import FFmpegClient
import Glibc
import HTTPKit
import MusicDatabase
import Persistence
import SnapcastRooms
import WebFrontEnd

/// The page for a phone or a browser (docs/web.md): one more front-end of the player, on the
/// library the MPD front-end serves, behind libmicrohttpd (HTTPKit).
extension Daemon {
    /// The web front-end and its HTTP server, or nil (http-address = none, or no token could
    /// be had for a LAN address: logged). A port already taken is one log line: no page.
    func startWeb(settings: Settings, library: MusicLibrary?) -> WebFrontEnd? {
        guard let address = settings.httpAddress else { return nil }
        let loopbackOnly = WebAddress.isLoopback(address)
        var token = ""
        if !loopbackOnly {
            switch WebToken.loadOrCreate(XDGDirectories.current().webTokenFile) {
            case .success(let value): token = value
            case .failure(let error):
                Log.warning("web: no page beyond this machine without its token (\(error))")
                return nil
            }
        }
        let web = WebFrontEnd(
            host: self, playerQueue: coreQueue,
            settings: WebSettings(loopbackOnly: loopbackOnly, token: token, port: settings.httpPort,
                                  output: settings.output == .snapcast ? "snapcast" : "pulse",
                                  pageFolders: Self.pageFolders()),
            library: library, thumbnails: Self.thumbnail, clock: { MonotonicClock.seconds() })
        if web.pageFolder == nil {
            Log.warning("web: the page's files were not found (\(Self.pageFolders().joined(separator: ", "))): the API only")
        }
        let server = HTTPServer(settings: HTTPServerSettings(address: address, port: settings.httpPort)) { [weak web] request, responder in
            guard let web else { return responder.respond(HTTPResponse.error("stopping", status: 503)) }
            WebBridge.serve(request, responder, on: web)
        }
        do throws(HTTPServerError) {
            try server.start()
        } catch .addressInUse(let address, let port) {
            Log.warning("web: \(address) port \(port) is taken: no page (http-port in aubade.conf chooses another)")
            return nil
        } catch {
            Log.warning("web: no page: \(error)")
            return nil
        }
        Log.info("web: the page is served on http://\(WebAddress.hostText(address == "any" ? "0.0.0.0" : address)):\(server.port ?? settings.httpPort)/")
        frontEnds.attach(web)
        httpServer = server
        if settings.output == .snapcast { startRooms(settings: settings, web: web) }
        return web
    }

    /// With output = snapcast, the page's rooms: a client of the snapserver's control port
    /// (`snapcast-control`; none: no rooms). Only then: with PulseAudio there are no rooms.
    private func startRooms(settings: Settings, web: WebFrontEnd) {
        guard let control = settings.snapcastControl else {
            Log.info("web: no rooms (snapcast-control = none)")
            return
        }
        let client = SnapcastRoomsClient(host: control.host, port: control.port, streamPath: settings.snapcastSource.path) { level, message in
            switch level {
            case .debug: Log.debug(message)
            case .info: Log.info(message)
            case .warning: Log.warning(message)
            }
        }
        web.attachRooms(RoomsBridge(client: client))
        client.start()
        roomsClient = client
    }

    /// Where the page's files are: `AUBADE_WEB_ROOT`, then where `make install` puts them
    /// (`../share/aubade/web` beside the binary), then the source tree the binary was built from.
    static func pageFolders() -> [String] {
        var folders: [String] = []
        if let root = getenv("AUBADE_WEB_ROOT").map({ String(cString: $0) }), !root.isEmpty { folders.append(root) }
        if let binary = Self.ownFolder() { folders.append(binary + "/../share/aubade/web") }
        // #filePath is …/Sources/aubade/Daemon+Web.swift: three levels up is the source tree.
        var source = "\(#filePath)"
        for _ in 0..<3 { source = String(source[..<(source.lastIndex(of: "/") ?? source.startIndex)]) }
        folders.append(source + "/web")
        return folders
    }

    private static func ownFolder() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let path = String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return path.lastIndex(of: "/").map { String(path[..<$0]) }
    }
}

extension Daemon {
    /// A cover thumbnail, made by the FFmpeg helper (its own process: a hostile picture
    /// costs a helper, not the daemon).
    static let thumbnail: CoverStore.Thumbnailer = { path, source, side in
        let helperSource: ThumbnailHelper.Source = source == .embedded ? .embedded : .imageFile
        // Opened here by its bytes (a name that is not UTF-8 is a name all the same); a FIFO
        // named cover.jpg does not block the open, and only regular files are read.
        let descriptor = path.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY) }
        guard descriptor >= 0 else { return .failure(CoverStore.CoverError("cannot open \(path)")) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            return .failure(CoverStore.CoverError("\(path) is not a file"))
        }
        switch ThumbnailHelper.shared.thumbnail(descriptor: descriptor, source: helperSource, maximumSide: side) {
        case .success(let jpeg): return .success(jpeg)
        case .failure(let error): return .failure(CoverStore.CoverError("\(error)"))
        }
    }
}

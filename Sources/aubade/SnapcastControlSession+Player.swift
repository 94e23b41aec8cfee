import DBusKit
import Dispatch
import Glibc
import MPRIS
import SnapcastControl

/// The player's side of the control script: the daemon's MPRIS properties followed (GetAll,
/// PropertiesChanged, Seeked, its name coming and going) into the mirror, and its cover read.
extension SnapcastControlSession {
    // MARK: The player's side

    func signal(_ message: Message) {
        guard let member = message.member, let arguments = try? message.arguments() else { return }
        switch (message.interface, member) {
        case (MPRISNames.propertiesInterface?, "PropertiesChanged"):
            guard arguments.first?.asString == MPRISNames.playerInterface, let changed = arguments.dropFirst().first?.asVardict else { return }
            apply(changed)
            // The position is not signalled: it is read, and the change pushed with it.
            refreshPosition()
        case (MPRISNames.playerInterface?, "Seeked"):
            guard let position = arguments.first?.asInt64 else { return }
            mirror.position = position
            mirror.positionTime = Self.now()
            push()
        case (_, "NameOwnerChanged"):
            guard arguments.count == 3, arguments[0].asString == MPRISNames.busName else { return }
            if arguments[2].asString?.isEmpty == false {
                refresh()
            } else {
                mirror = PlayerMirror()
                push()
            }
        default:
            break
        }
    }

    /// GetAll of the player: everything afresh (at start, and when the daemon appears).
    func refresh() {
        refreshes += 1
        let generation = refreshes
        do throws(DBusError) {
            let message = try Message.methodCall(destination: MPRISNames.busName, path: MPRISNames.objectPath,
                                                 interface: MPRISNames.propertiesInterface, member: "GetAll",
                                                 arguments: [.string(MPRISNames.playerInterface)])
            // Never starts the daemon just to look: snapserver starts this script with the stream.
            message.setAutoStart(false)
            try connection.call(message, timeoutMilliseconds: 10_000) { [unowned self] result in
                guard generation == refreshes else { return }
                if case .success(let reply) = result, reply.carriedError == nil,
                   let properties = (try? reply.arguments())?.first?.asVardict {
                    mirror.isRunning = true
                    apply(properties)
                } else {
                    mirror = PlayerMirror()
                }
                push()
            }
        } catch {
            push()
        }
    }

    private func refreshPosition() {
        do throws(DBusError) {
            let message = try Message.methodCall(destination: MPRISNames.busName, path: MPRISNames.objectPath,
                                                 interface: MPRISNames.propertiesInterface, member: "Get",
                                                 arguments: [.string(MPRISNames.playerInterface), .string("Position")])
            message.setAutoStart(false)
            try connection.call(message, timeoutMilliseconds: 5_000) { [unowned self] result in
                if case .success(let reply) = result, let position = (try? reply.arguments())?.first?.unwrapped.asInt64 {
                    mirror.position = position
                    mirror.positionTime = Self.now()
                }
                push()
            }
        } catch {
            push()
        }
    }

    private func apply(_ changed: [String: DBusValue]) {
        let now = Self.now()
        // The position runs on to the moment of the change before the status changes.
        mirror.position = mirror.position(at: now)
        mirror.positionTime = now
        for (name, value) in changed {
            let value = value.unwrapped
            switch name {
            case "PlaybackStatus": mirror.status = value.asString ?? mirror.status
            case "LoopStatus": mirror.loopStatus = value.asString ?? mirror.loopStatus
            case "Shuffle": mirror.shuffle = value.asBool ?? mirror.shuffle
            case "Volume": mirror.volume = value.asDouble ?? mirror.volume
            case "Rate": mirror.rate = value.asDouble ?? mirror.rate
            case "Position": mirror.position = value.asInt64 ?? mirror.position
            case "CanGoNext": mirror.canGoNext = value.asBool ?? false
            case "CanGoPrevious": mirror.canGoPrevious = value.asBool ?? false
            case "CanPlay": mirror.canPlay = value.asBool ?? false
            case "CanPause": mirror.canPause = value.asBool ?? false
            case "CanSeek": mirror.canSeek = value.asBool ?? false
            case "Metadata": mirror.track = Self.track(value.asVardict ?? [:])
            default: break
            }
        }
        loadCoverIfNeeded()
    }

    private static func track(_ metadata: [String: DBusValue]) -> TrackMetadata {
        var track = TrackMetadata()
        track.trackID = metadata["mpris:trackid"]?.unwrapped.asObjectPath ?? metadata["mpris:trackid"]?.unwrapped.asString
        track.title = metadata["xesam:title"]?.unwrapped.asString
        track.artists = metadata["xesam:artist"]?.unwrapped.asStringArray ?? []
        track.album = metadata["xesam:album"]?.unwrapped.asString
        track.albumArtists = metadata["xesam:albumArtist"]?.unwrapped.asStringArray ?? []
        track.genres = metadata["xesam:genre"]?.unwrapped.asStringArray ?? []
        track.length = metadata["mpris:length"]?.unwrapped.asInt64
        track.url = metadata["xesam:url"]?.unwrapped.asString
        track.artURL = metadata["mpris:artUrl"]?.unwrapped.asString
        track.trackNumber = metadata["xesam:trackNumber"]?.unwrapped.asInt64
        track.discNumber = metadata["xesam:discNumber"]?.unwrapped.asInt64
        return track
    }

    // MARK: The cover

    var currentCover: CoverArt? {
        guard let url = mirror.track.artURL, let cover, cover.url == url else { return nil }
        return cover.art
    }

    /// A cover in a local file is sent as data (remote Snapcast clients cannot open our
    /// file:// URL); read off the queue, at most `CoverArt.byteLimit`, then pushed again.
    private func loadCoverIfNeeded() {
        guard let url = mirror.track.artURL, url.hasPrefix("file://"), cover?.url != url else { return }
        cover = (url, nil)
        let path = Self.path(ofFileURL: url)
        DispatchQueue.global(qos: .utility).async { [weak self] in
            let art = path.flatMap(Self.readSmallFile).flatMap(CoverArt.init(bytes:))
            guard let self else { return }
            queue.async { [self] in
                guard cover?.url == url, let art else { return }
                cover = (url, art)
                push()
            }
        }
    }

    static func path(ofFileURL url: String) -> String? {
        guard url.hasPrefix("file://") else { return nil }
        var bytes: [UInt8] = []
        var utf8 = Array(url.utf8.dropFirst("file://".count))[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A regular file's bytes, or nil when it is not one or is larger than the cover limit.
    static func readSmallFile(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size <= CoverArt.byteLimit else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + done, $0.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            done += count
        }
        return Array(bytes[0..<done])
    }
}

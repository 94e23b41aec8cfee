import Dispatch
import FrontEnd
import MusicDatabase
import Foundation
import PlayerCore
@testable import WebFrontEnd

/// A host running a real `PlayerState` on its own queue, as the daemon does, with the web
/// front-end attached: each event one turn, handed to the front-end.
final class FakePlayerHost: PlayerHost, @unchecked Sendable {
    let playerQueue = DispatchQueue(label: "test.web.player")
    private var player = PlayerState()
    private(set) var events: [Event] = []
    var frontEnd: WebFrontEnd?

    var snapshot: PlayerSnapshot { player.snapshot }
    var position: Microseconds { player.position(at: Instant(microseconds: 0)) }
    var queue: PlayQueue { player.queue }
    var playlists: [PlaylistDescription] { [] }
    var activePlaylist: PlaylistDescription? { nil }

    func handle(_ event: Event) {
        events.append(event)
        let before = player.snapshot
        let effects = player.handle(event, at: Instant(microseconds: 0))
        frontEnd?.playerDidTurn(PlayerTurn(event: event, before: before, after: player.snapshot, effects: effects,
                                           queue: player.queue, position: position))
    }

    func loadTracks(forURI uri: String, completion: @escaping (Result<[Track], FrontEndError>) -> Void) {
        completion(.failure(.invalidArgument("no files in this test")))
    }

    func saveQueue(asPlaylist name: String, completion: @escaping (Result<Void, FrontEndError>) -> Void) {
        completion(.success(()))
    }

    func activatePlaylist(_ playlist: PlaylistDescription, completion: @escaping (Result<Void, FrontEndError>) -> Void) {
        completion(.failure(.invalidArgument("no playlists")))
    }

    var recordedEvents: [Event] { playerQueue.sync { events } }
}

/// Events a page would receive.
final class RecordingSink: WebEventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var list: [(event: String, data: String)] = []
    var all: [(event: String, data: String)] { lock.withLock { list } }

    func send(event: String, data: String) -> Bool {
        lock.withLock { list.append((event, data)) }
        return true
    }

    func close() {}
}

/// The front-end on a fake host: requests in, answers out, synchronously.
final class WebHarness: @unchecked Sendable {
    let host = FakePlayerHost()
    let frontEnd: WebFrontEnd

    init(settings: WebSettings = WebSettings(loopbackOnly: true, token: "secret-token", port: 6680, output: "pulse",
                                             pageFolders: []),
         tracks: [Track] = [], library: MusicLibrary? = nil) {
        let host = self.host
        frontEnd = host.playerQueue.sync {
            let frontEnd = WebFrontEnd(host: host, playerQueue: host.playerQueue, settings: settings, library: library,
                                       thumbnails: { _, _, _ in .success(nil) }, clock: { 0 })
            host.frontEnd = frontEnd
            if !tracks.isEmpty { host.handle(.enqueue(tracks, play: false)) }
            return frontEnd
        }
    }

    /// Sends one request and waits for its answer.
    func send(_ method: String, _ path: String, query: [String: String] = [:], json: String? = nil,
              headers: [String: String] = ["host": "127.0.0.1:6680"], sink: RecordingSink? = nil) -> WebResponse? {
        var headers = headers
        if json != nil, headers["content-type"] == nil { headers["content-type"] = "application/json" }
        let request = WebRequest(method: method, path: path, query: query, headers: headers, body: Array((json ?? "").utf8))
        let done = DispatchSemaphore(value: 0)
        let answer = LockedAnswer()
        frontEnd.serve(request, reply: { response in
            answer.set(response)
            done.signal()
        }, openStream: {
            done.signal()
            return sink
        })
        guard done.wait(timeout: .now() + 5) == .success else { return nil }
        // Let the turn the request caused reach the front-end's queue.
        host.playerQueue.sync {}
        frontEnd.queue.sync {}
        return answer.value
    }

    /// The JSON object of a GET's answer.
    func document(_ path: String, _ query: [String: String] = [:]) -> [String: Any] {
        guard let body = send("GET", path, query: query)?.body else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }

    func state() -> [String: Any] {
        guard let body = send("GET", "/api/state")?.body else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
    }
}

final class LockedAnswer: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: WebResponse?
    func set(_ response: WebResponse) { lock.withLock { stored = response } }
    var value: WebResponse? { lock.withLock { stored } }
}

func tone(_ name: String, title: String) -> Track {
    Track(path: FilePath("/music/\(name).mp3")!, title: title, artists: ["Ann"], album: "Album", length: 60_000_000)
}

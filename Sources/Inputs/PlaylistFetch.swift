import CurlKit
import Dispatch
import PlayerCore
import Handoff

/// Fetches a station's playlist (small, finite) and blocks until it is here: on the track's
/// decoder queue, which is allowed to wait.
enum PlaylistFetch {
    static func body(of url: StreamURL, settings: StreamSettings, isCancelled: @Sendable () -> Bool) throws(StreamError) -> [UInt8] {
        var request = HTTPRequest(url: url.text)
        request.caFile = settings.caFile
        request.connectTimeout = settings.connectTimeout
        request.stallTimeout = settings.stallTimeout
        let outcome = LockedState<Result<Void, TransferFailure>?>(nil)
        let headStatus = LockedState<Int?>(nil)
        let signal = DispatchSemaphore(value: 0)
        let transfer = HTTPTransfer(request, bufferCapacity: StationPlaylist.maximumBytes + 1) { event in
            switch event {
            case .head(let head): headStatus.withLock { $0 = head.status }
            case .bytesAvailable: break
            case .ended(let result): outcome.withLock { $0 = result }
            }
            signal.signal()
        }
        transfer.start()
        defer { transfer.cancel() }
        let fail = { (reason: String) in StreamError(url: url.redacted, reason: reason) }
        while outcome.withLock({ $0 }) == nil {
            if isCancelled() { throw fail("cancelled") }
            if transfer.bufferedByteCount > StationPlaylist.maximumBytes {
                throw fail("playlist larger than \(StationPlaylist.maximumBytes / 1024) KiB")
            }
            _ = signal.wait(timeout: .now() + 0.1)
        }
        if case .failure(let failure) = outcome.withLock({ $0 }) { throw fail("playlist could not be fetched: \(failure.message)") }
        if let status = headStatus.withLock({ $0 }), !(200...299).contains(status) {
            throw fail("the server answered HTTP \(status) for the playlist")
        }
        var body = [UInt8](repeating: 0, count: StationPlaylist.maximumBytes + 1)
        let count = body.withUnsafeMutableBytes { transfer.read(into: $0) }
        guard count <= StationPlaylist.maximumBytes else { throw fail("playlist larger than \(StationPlaylist.maximumBytes / 1024) KiB") }
        return Array(body[0..<count])
    }
}

import Decoding
import Dispatch
import Library
import PlayerCore

extension Daemon {
    /// An entry queued with an estimated length (an MP3 without a Xing/Info frame) gets its
    /// exact one measured when it starts playing: one pass over its frame headers, on a handle
    /// of its own, on the loading queue; the answer updates the entry like a found cover does
    /// (TrackMetadataChanged, and PropertiesChanged(Metadata) while it is current).
    func measureLengthIfEstimated(before: PlayerSnapshot, after: PlayerSnapshot) {
        dispatchPrecondition(condition: .onQueue(coreQueue))
        guard after.status == .playing, let current = after.current, current.track.lengthIsEstimate,
              before.status != .playing || before.current?.id != current.id,
              let path = current.track.path, !lengthsBeingMeasured.contains(current.id) else { return }
        lengthsBeingMeasured.insert(current.id)
        let id = current.id
        // The daemon lives as long as the process: capturing it strongly is safe.
        loadingQueue.async { [self] in
            let length: Microseconds?
            do throws(DecodingError) {
                length = try TrackReader.measureLength(path: path)
                if let length { tagIndex.noteExactLength(length, of: path) }
            } catch {
                Log.info("length of \(path.displayString) not measured: \(error.reason)")
                length = nil
            }
            coreQueue.async { [self] in
                lengthsBeingMeasured.remove(id)
                if let length { handle(.trackLengthMeasured(id, length)) }
            }
        }
    }
}

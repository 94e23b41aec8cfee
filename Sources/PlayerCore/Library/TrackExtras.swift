/// The part of a `Track` most tracks lack and only some readers need (ReplayGain, the
/// library's extra tags and format), shared by every copy of the track (immutable).
final class TrackExtras: Sendable, Equatable {
    let replayGain: ReplayGainTags?
    let moreTags: [TagValue]
    let audioFormat: AudioFormatFacts?

    private init(replayGain: ReplayGainTags?, moreTags: [TagValue], audioFormat: AudioFormatFacts?) {
        self.replayGain = replayGain
        self.moreTags = moreTags
        self.audioFormat = audioFormat
    }

    /// nil when there is nothing to keep.
    static func make(replayGain: ReplayGainTags?, moreTags: [TagValue], audioFormat: AudioFormatFacts?) -> TrackExtras? {
        replayGain == nil && moreTags.isEmpty && audioFormat == nil
            ? nil : TrackExtras(replayGain: replayGain, moreTags: moreTags, audioFormat: audioFormat)
    }

    static func == (lhs: TrackExtras, rhs: TrackExtras) -> Bool {
        lhs === rhs || (lhs.replayGain == rhs.replayGain && lhs.moreTags == rhs.moreTags && lhs.audioFormat == rhs.audioFormat)
    }
}

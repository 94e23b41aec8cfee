/// What `replaygain` in aubade.conf asks for.
public enum ReplayGainMode: String, Sendable, Equatable, CaseIterable {
    /// Every file plays as it is.
    case off
    /// Each track at its own loudness.
    case track
    /// The album's gain, so quiet songs stay quiet within an album.
    case album
    /// Album gain while the queue plays an album in order, track gain when shuffled or mixed.
    case auto
}

/// The gain to apply to one track, decided from its tags, the mode and the queue.
///
/// Pure: PlayerCore decides, the output multiplies. Clipping prevention: the gain is lowered so
/// that the tagged peak, amplified, stays at or below full scale.
public struct ReplayGainDecision: Sendable, Equatable {
    /// Linear factor to multiply each sample by (1 = untouched).
    public var scale: Double
    /// The dB actually applied (gain + preamp, after clipping prevention), for `aubade status`.
    public var appliedGain: Double
    /// Which tag it came from; nil: none applied.
    public var source: Source?
    /// The gain was lowered to keep the peak below full scale.
    public var limitedByPeak: Bool

    public enum Source: String, Sendable, Equatable {
        case track, album
    }

    public static let unity = ReplayGainDecision(scale: 1, appliedGain: 0, source: nil, limitedByPeak: false)

    public init(scale: Double, appliedGain: Double, source: Source?, limitedByPeak: Bool) {
        self.scale = scale
        self.appliedGain = appliedGain
        self.source = source
        self.limitedByPeak = limitedByPeak
    }

    /// `albumInOrder`: the queue plays this track's album in order (for `.auto`).
    /// `preamp`: dB added to every tagged gain. `untaggedGain`: dB applied to files without
    /// tags (0 by default, as most players).
    public static func decide(_ tags: ReplayGainTags?, mode: ReplayGainMode, albumInOrder: Bool,
                              preamp: Double = 0, preventClipping: Bool = true) -> ReplayGainDecision {
        guard mode != .off, let tags else { return .unity }
        let preferAlbum: Bool
        switch mode {
        case .off: return .unity
        case .track: preferAlbum = false
        case .album: preferAlbum = true
        case .auto: preferAlbum = albumInOrder
        }
        // Fallback from one to the other when only one is tagged.
        let chosen: (gain: Double, peak: Double?, source: Source)?
        if preferAlbum, let gain = tags.albumGain {
            chosen = (gain, tags.albumPeak, .album)
        } else if let gain = tags.trackGain {
            chosen = (gain, tags.trackPeak, .track)
        } else if let gain = tags.albumGain {
            chosen = (gain, tags.albumPeak, .album)
        } else {
            chosen = nil
        }
        guard let chosen else { return .unity }
        let safePreamp = preamp.isFinite ? min(max(preamp, -30), 30) : 0
        var decibels = chosen.gain + safePreamp
        var limited = false
        if preventClipping, let peak = chosen.peak, peak > 0 {
            // The loudest gain that keeps peak × scale ≤ 1.
            let ceiling = Decibels.of(scale: 1 / peak)
            if decibels > ceiling {
                decibels = ceiling
                limited = true
            }
        }
        return ReplayGainDecision(scale: Decibels.scale(of: decibels), appliedGain: decibels, source: chosen.source, limitedByPeak: limited)
    }
}

import FFmpegWire

/// One answer of the helper, read from its frame (`failure` and `dropped` are thrown instead).
public enum HelperAnswer: Sendable, Equatable {
    case format(WireFormat)
    case pcm([UInt8])
    case end
    case title(WireTitle)
    /// More input wanted; the PCM the helper holds (decoded, not yet sent) in bytes.
    case needInput(held: Int64)
    /// Where the next PCM starts after a seek, in microseconds.
    case seeked(Int64)
    case tags(TrackFacts)
    case cover(mimeType: String, data: [UInt8])
    case noCover

    init(_ frame: WireFrame) throws(HelperError) {
        switch frame.kind {
        case .failure: throw .refused((try? frame.text()) ?? "failed")
        case .dropped: throw .dropped((try? frame.text()) ?? "dropped")
        default: break
        }
        do throws(WireError) {
            self = try Self.decode(frame)
        } catch {
            throw .broken(error.description)
        }
    }

    private static func decode(_ frame: WireFrame) throws(WireError) -> HelperAnswer {
        switch frame.kind {
        case .format: return .format(try WireFormat(frame))
        case .pcm: return .pcm(frame.payload)
        case .end: return .end
        case .title: return .title(try WireTitle(frame))
        case .needInput:
            var reader = frame.reader
            return .needInput(held: Int64(clamping: try reader.u64()))
        case .seeked: return .seeked(try frame.integer())
        case .tags: return .tags(try TrackFacts(frame))
        case .coverArt:
            var reader = frame.reader
            return .cover(mimeType: try reader.string(), data: try reader.data())
        case .noCover: return .noCover
        default: throw .malformed("\(frame.kind) is a request, not an answer")
        }
    }
}

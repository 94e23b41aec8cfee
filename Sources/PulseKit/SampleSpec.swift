internal import CPulse

/// `pa_sample_spec`: the PCM format of a stream.
public struct SampleSpec: Sendable, Hashable {
    /// The sample formats this wrapper offers (native endianness only: we produce the PCM).
    public enum Format: Sendable, Hashable {
        case signed16
        case float32

        var raw: pa_sample_format_t {
            switch self {
            case .signed16: aubade_pa_sample_s16ne
            case .float32: aubade_pa_sample_float32ne
            }
        }

        /// Bytes per sample of one channel.
        public var sampleSize: Int {
            switch self {
            case .signed16: 2
            case .float32: 4
            }
        }
    }

    public var format: Format
    public var rate: UInt32
    public var channels: UInt8

    public init(format: Format, rate: UInt32, channels: UInt8) {
        self.format = format
        self.rate = rate
        self.channels = channels
    }

    /// Bytes per frame (one sample of every channel).
    public var frameSize: Int { format.sampleSize * Int(channels) }

    /// Whether libpulse accepts this spec (`pa_sample_spec_valid`).
    public var isValid: Bool {
        var c = cValue
        return pa_sample_spec_valid(&c) != 0
    }

    /// The byte count of `microseconds` of audio, rounded down to whole frames.
    public func bytes(forMicroseconds microseconds: UInt64) -> Int {
        var c = cValue
        return pa_usec_to_bytes(microseconds, &c)
    }

    /// The duration of `bytes` of audio, in microseconds.
    public func microseconds(forBytes bytes: Int) -> UInt64 {
        var c = cValue
        return pa_bytes_to_usec(UInt64(max(bytes, 0)), &c)
    }

    var cValue: pa_sample_spec {
        pa_sample_spec(format: format.raw, rate: rate, channels: channels)
    }
}

/// `pa_buffer_attr`: how much the server buffers for a stream, in bytes. `nil` = server default.
public struct BufferAttributes: Sendable, Hashable {
    /// Most the server will hold (`maxlength`).
    public var maxLength: Int?
    /// The fill level the server asks the client to keep (`tlength`, playback).
    public var targetLength: Int?
    /// Bytes needed before playback starts or restarts after an underrun (`prebuf`).
    public var prebuffer: Int?
    /// Smallest request the server sends (`minreq`): bigger = fewer wakeups.
    public var minimumRequest: Int?
    /// Fragment size (`fragsize`, recording only).
    public var fragmentSize: Int?

    public init(maxLength: Int? = nil, targetLength: Int? = nil, prebuffer: Int? = nil,
                minimumRequest: Int? = nil, fragmentSize: Int? = nil) {
        self.maxLength = maxLength
        self.targetLength = targetLength
        self.prebuffer = prebuffer
        self.minimumRequest = minimumRequest
        self.fragmentSize = fragmentSize
    }

    var cValue: pa_buffer_attr {
        // (uint32_t)-1 means "server default" for every field.
        func raw(_ value: Int?) -> UInt32 {
            guard let value, value >= 0, value < Int(UInt32.max) else { return UInt32.max }
            return UInt32(value)
        }
        return pa_buffer_attr(maxlength: raw(maxLength), tlength: raw(targetLength),
                              prebuf: raw(prebuffer), minreq: raw(minimumRequest),
                              fragsize: raw(fragmentSize))
    }
}

internal import CFFmpeg

/// An opened container (`AVFormatContext`): its streams, its tags, its packets.
///
/// Read from a `ByteSource` (a file descriptor, bytes handed over) or from a URL (an HLS
/// station, fetched by FFmpeg's own HTTP, with `NetworkPolicy` deciding every request).
/// Use from one thread; frees everything in `deinit`.
public final class MediaInput {
    var context: UnsafeMutablePointer<AVFormatContext>?
    private let io: CustomIO?
    private let network: NetworkBox?

    /// Opens `source` as `formatName` ("mov", "aac", "ogg"…, as FFmpeg names its demuxers), or
    /// whatever FFmpeg finds when nil. Reads the container's header: for an MP4 that is the
    /// `moov` atom, wherever it sits (the source must then seek).
    public init(source: ByteSource, formatName: String?, bufferSize: Int = 16 * 1024) throws(FFmpegError) {
        let io = try CustomIO(source: source, bufferSize: bufferSize)
        guard let context = avformat_alloc_context() else { throw .outOfMemory("avformat_alloc_context") }
        context.pointee.pb = io.context
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        var format: UnsafePointer<AVInputFormat>?
        if let formatName {
            guard let found = av_find_input_format(formatName) else {
                avformat_free_context(context)
                throw FFmpegError(function: "av_find_input_format", code: aubade_AVERROR_INVALIDDATA, message: "no demuxer \(formatName)")
            }
            format = found
        }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        // On failure avformat_open_input frees the context (not our custom I/O).
        try FFmpegError.check(avformat_open_input(&opened, nil, format, nil), "avformat_open_input")
        self.context = opened
        self.io = io
        self.network = nil
    }

    /// Opens `url` with FFmpeg's own protocols; `policy` is asked about it and about every
    /// playlist and segment the demuxer opens after it, and gives their options (CA file…).
    /// `formatOptions` are the demuxer's (the HLS demuxer's `m3u8_hold_counters`…).
    public init(url: String, policy: NetworkPolicy, formatOptions: [(String, String)] = []) throws(FFmpegError) {
        guard let options = policy.options(for: url).map({ $0 + formatOptions }) else {
            throw FFmpegError(function: "avformat_open_input", code: aubade_AVERROR_EXIT, message: "refused: \(policy.lastRefusal)")
        }
        guard let context = avformat_alloc_context() else { throw .outOfMemory("avformat_alloc_context") }
        let box = NetworkBox(policy)
        context.pointee.opaque = Unmanaged.passUnretained(box).toOpaque()
        context.pointee.interrupt_callback.callback = { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<NetworkBox>.fromOpaque(opaque).takeUnretainedValue().policy.shouldInterrupt() ? 1 : 0
        }
        context.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(box).toOpaque()
        aubade_set_io_open(context) { context, pb, url, flags, options in
            guard let context, let pb, let url, let opaque = context.pointee.opaque else { return aubade_AVERROR_EXIT }
            let box = Unmanaged<NetworkBox>.fromOpaque(opaque).takeUnretainedValue()
            let policy = box.policy
            guard let extra = policy.options(for: String(cString: url)) else { return aubade_AVERROR_EXIT }
            var local: OpaquePointer?
            defer { av_dict_free(&local) }
            let dictionary = options ?? withUnsafeMutablePointer(to: &local) { $0 }
            for (key, value) in extra { av_dict_set(dictionary, key, value, 0) }
            let result = avio_open2(pb, url, flags, &context.pointee.interrupt_callback, dictionary)
            let text = String(cString: url)
            // Never the URL itself (the first open): avformat_close_input closes that one
            // without asking io_close2, which a tap needs.
            defer { box.opens += 1 }
            guard result >= 0, box.opens > 0, let opened = pb.pointee, policy.wantsLeadingTag(of: text) else { return result }
            // The segment's first bytes go past the policy (`SegmentTap`); the tap replaces it.
            guard let tap = SegmentTap(inner: opened, url: text, policy: policy) else { return result }
            box.taps[UnsafeMutableRawPointer(tap.context)] = tap
            pb.pointee = tap.context
            return result
        }
        aubade_set_io_close2(context) { context, pb in
            guard let pb else { return 0 }
            if let opaque = context?.pointee.opaque,
               let tap = Unmanaged<NetworkBox>.fromOpaque(opaque).takeUnretainedValue().taps.removeValue(forKey: UnsafeMutableRawPointer(pb)) {
                return tap.close()
            }
            return avio_close(pb)
        }
        var dictionary = MetadataDictionary.make(options)
        defer { av_dict_free(&dictionary) }
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        try FFmpegError.check(avformat_open_input(&opened, url, nil, &dictionary), "avformat_open_input")
        self.context = opened
        self.io = nil
        self.network = box
    }

    deinit {
        avformat_close_input(&context)
        // Taps FFmpeg did not close (it closes every segment it opened; this is a guard).
        if let network {
            for tap in network.taps.values { _ = tap.close() }
            network.taps = [:]
        }
        _ = io
    }

    /// Reads packets until every stream's parameters are known (ADTS has no header: its
    /// rate and length come from its first frames). Reads more than the header: not for
    /// MP4, whose header says it all.
    public func findStreamInfo() throws(FFmpegError) {
        try FFmpegError.check(avformat_find_stream_info(context, nil), "avformat_find_stream_info")
    }

    /// The demuxer's name, e.g. "mov,mp4,m4a,3gp,3g2,mj2", "aac", "ogg", "hls".
    public var formatName: String {
        guard let name = context?.pointee.iformat?.pointee.name else { return "" }
        return String(cString: name)
    }

    /// The container's tags (MP4 `ilst` atoms, ID3 frames, Vorbis comments), FFmpeg's names.
    public var metadata: MetadataPairs { MetadataDictionary.pairs(context?.pointee.metadata) }

    /// Whether the input has an end (a file, a finished HLS playlist) rather than being live.
    public var hasEnd: Bool { durationMicroseconds != nil }

    /// The whole file's length in microseconds, when FFmpeg knows or estimated it.
    public var durationMicroseconds: Int64? {
        guard let duration = context?.pointee.duration, duration != aubade_AV_NOPTS_VALUE, duration > 0 else { return nil }
        return duration
    }

    public var streams: [MediaStream] {
        guard let context else { return [] }
        return (0..<Int(context.pointee.nb_streams)).compactMap { index in
            context.pointee.streams[index].map(MediaStream.init)
        }
    }

    /// The stream FFmpeg would play for audio (the best of several), nil when there is none.
    public func bestAudioStream() -> Int? {
        let index = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        return index >= 0 ? Int(index) : nil
    }

    /// Packets of the other streams are not even read into memory.
    public func discardAll(except kept: Set<Int>) {
        guard let context else { return }
        for index in 0..<Int(context.pointee.nb_streams) where !kept.contains(index) {
            context.pointee.streams[index]?.pointee.discard = AVDISCARD_ALL
        }
    }

    /// The cover stored as a stream (MP4 `covr`, ID3 APIC): its MIME type and bytes.
    public func attachedPicture(stream index: Int, limit: Int) -> (mimeType: String, data: [UInt8])? {
        guard let context, index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[index],
              stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0 else { return nil }
        let packet = stream.pointee.attached_pic
        guard let data = packet.data, packet.size > 0, Int(packet.size) <= limit else { return nil }
        let mime: String
        switch stream.pointee.codecpar.pointee.codec_id {
        case AV_CODEC_ID_MJPEG: mime = "image/jpeg"
        case AV_CODEC_ID_PNG: mime = "image/png"
        case AV_CODEC_ID_BMP: mime = "image/bmp"
        case AV_CODEC_ID_GIF: mime = "image/gif"
        case AV_CODEC_ID_WEBP: mime = "image/webp"
        default: return nil
        }
        return (mime, Array(UnsafeBufferPointer(start: data, count: Int(packet.size))))
    }

    /// The cover stored as a stream, as a packet to decode (a new reference to its bytes).
    public func attachedPicturePacket(stream index: Int) -> Packet? {
        guard let context, index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[index],
              stream.pointee.disposition & AV_DISPOSITION_ATTACHED_PIC != 0, stream.pointee.attached_pic.size > 0,
              let packet = try? Packet() else { return nil }
        guard av_packet_ref(packet.packet, &stream.pointee.attached_pic) >= 0 else { return nil }
        return packet
    }

    /// The next packet of a stream not discarded; false at the end of the input.
    public func read(into packet: Packet) throws(FFmpegError) -> Bool {
        packet.unref()
        let result = av_read_frame(context, packet.packet)
        if result == aubade_AVERROR_EOF { return false }
        try FFmpegError.check(result, "av_read_frame")
        return true
    }

    /// The stream's tags if the demuxer changed them since the last call (a chained Ogg stream's
    /// new comments: FFmpeg flags the change without always attaching it to a packet).
    public func takeMetadataUpdate(stream index: Int) -> MetadataPairs? {
        guard let context, index < Int(context.pointee.nb_streams), let stream = context.pointee.streams[index],
              stream.pointee.event_flags & AVSTREAM_EVENT_FLAG_METADATA_UPDATED != 0 else { return nil }
        stream.pointee.event_flags &= ~AVSTREAM_EVENT_FLAG_METADATA_UPDATED
        return MetadataDictionary.pairs(stream.pointee.metadata)
    }

    /// Moves to the last key point at or before `timestamp` (in the stream's time base).
    public func seek(stream index: Int, to timestamp: Int64) throws(FFmpegError) {
        try FFmpegError.check(avformat_seek_file(context, Int32(index), Int64.min, timestamp, timestamp, 0), "avformat_seek_file")
    }

    final class NetworkBox {
        let policy: NetworkPolicy
        /// The taps FFmpeg holds open, by their context (closed through `io_close2`).
        var taps: [UnsafeMutableRawPointer: SegmentTap] = [:]
        var opens = 0
        init(_ policy: NetworkPolicy) { self.policy = policy }
    }
}

internal import CFFmpeg

/// One compressed packet (`AVPacket`), reused from read to read.
public final class Packet {
    let packet: UnsafeMutablePointer<AVPacket>

    public init() throws(FFmpegError) {
        guard let packet = av_packet_alloc() else { throw .outOfMemory("av_packet_alloc") }
        self.packet = packet
    }

    deinit {
        var pointer: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&pointer)
    }

    public var streamIndex: Int { Int(packet.pointee.stream_index) }
    public var size: Int { Int(packet.pointee.size) }
    /// Presentation time in the stream's time base, when known.
    public var presentationTime: Int64? { packet.pointee.pts == aubade_AV_NOPTS_VALUE ? nil : packet.pointee.pts }

    /// The payload (a timed ID3 packet's tag bytes), at most `limit` bytes.
    public func bytes(limit: Int) -> [UInt8] {
        guard let data = packet.pointee.data, packet.pointee.size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: min(Int(packet.pointee.size), limit)))
    }

    /// Calls `body` with the payload in place (no copy; empty when there is none).
    public func withBytes<Value>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Value) rethrows -> Value {
        guard let data = packet.pointee.data, packet.pointee.size > 0 else { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        return try body(UnsafeBufferPointer(start: data, count: Int(packet.pointee.size)))
    }

    /// New tags that start with this packet (a chained Ogg stream's Vorbis comments), if any.
    public var metadataUpdate: MetadataPairs? {
        var size = 0
        guard let data = av_packet_get_side_data(packet, AV_PKT_DATA_METADATA_UPDATE, &size), size > 0 else { return nil }
        var dictionary: OpaquePointer?
        defer { av_dict_free(&dictionary) }
        guard av_packet_unpack_dictionary(data, size, &dictionary) >= 0 else { return nil }
        return MetadataDictionary.pairs(dictionary)
    }

    func unref() { av_packet_unref(packet) }
}

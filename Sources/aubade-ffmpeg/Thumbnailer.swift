import FFmpegKit
import FFmpegWire

/// A cover made small (`thumbnail`): the picture embedded in an audio file, or an image file,
/// decoded, shrunk to a longest side (never enlarged) and encoded as a JPEG.
///
/// Pictures are hostile input. Their size is read from their first bytes (`PictureHeader`) and
/// refused past the limits before a decoder is made; the decoder refuses the same sizes again
/// from what it parses (`max_pixels`), for the formats `PictureHeader` does not read.
enum Thumbnailer {
    /// The largest picture decoded: 12 000 pixels a side, 50 megapixels, 200 MB of pixels
    /// (a 50-megapixel RGBA PNG; the helper's memory is watched at 384 MB).
    static let sideLimit = 12_000
    static let pixelLimit = 50_000_000
    static let decodedByteLimit = 200 * 1024 * 1024
    /// An image file bigger than this is not read (a cover of 32 MiB is not a cover).
    static let imageFileLimit: Int64 = 32 * 1024 * 1024
    /// The decoders a picture may reach: FFmpeg's other video decoders are not for covers.
    static let codecs: Set<String> = ["mjpeg", "png", "bmp", "gif", "webp"]
    /// The demuxers an image file may be read by (FFmpeg's guess from its first bytes).
    static let imageFormats: Set<String> = ["jpeg_pipe", "png_pipe", "bmp_pipe", "webp_pipe", "gif", "gif_pipe"]
    /// `-q:v 4`: a 300 px cover in about 20 KB.
    static let quantiser = 4

    /// The JPEG, or nil when an audio file has no picture.
    static func thumbnail(descriptor: Int32, request: WireThumbnailRequest) throws(HelperFailure) -> [UInt8]? {
        let source = FileByteSource(descriptor: descriptor, randomAccess: true)
        let input: MediaInput
        let stream: Int
        let packet: Packet
        switch request.source {
        case .embedded:
            do { input = try MediaInput(source: source, formatName: nil, bufferSize: TrackProbe.bufferSize) } catch {
                throw HelperFailure("not an audio file that can be read (\(error.message))")
            }
            // An image file (FFmpeg reads those too) is not an audio file with a picture.
            guard input.streams.contains(where: { $0.kind == .audio }) else {
                throw HelperFailure("not an audio file (\(input.formatName.isEmpty ? "unknown" : input.formatName))")
            }
            guard let found = input.streams.first(where: { $0.kind == .attachedPicture }),
                  let picture = input.attachedPicturePacket(stream: found.index) else { return nil }
            stream = found.index
            packet = picture
        case .imageFile:
            if let size = source.size, size > imageFileLimit {
                throw HelperFailure("an image of \(size) bytes is too big to be a cover (at most \(imageFileLimit))")
            }
            do { input = try MediaInput(source: source, formatName: nil, bufferSize: 64 * 1024) } catch {
                throw HelperFailure("not an image that can be read (\(error.message))")
            }
            guard imageFormats.contains(input.formatName),
                  let found = input.streams.first(where: { $0.kind == .video || $0.kind == .attachedPicture }) else {
                throw HelperFailure("not an image (\(input.formatName.isEmpty ? "unknown" : input.formatName))")
            }
            stream = found.index
            input.discardAll(except: [stream])
            do {
                packet = try Packet()
                guard try input.read(into: packet) else { throw HelperFailure("no picture in it") }
            } catch let failure as HelperFailure {
                throw failure
            } catch let error as FFmpegError {
                throw HelperFailure("not an image that can be read (\(error.message))")
            } catch {
                throw HelperFailure("not an image that can be read")
            }
        }
        return try thumbnail(input: input, stream: stream, first: packet, request: request)
    }

    private static func thumbnail(input: MediaInput, stream: Int, first packet: Packet,
                                  request: WireThumbnailRequest) throws(HelperFailure) -> [UInt8] {
        let header = packet.withBytes { PictureHeader($0) }
        if let header { try check(width: header.width, height: header.height, bytesPerPixel: header.bytesPerPixel) }
        // A JPEG is decoded at the smallest 1/2ⁿ (n ≤ 3) still at least the size asked.
        var lowres = 0
        if let header, header.isJPEG {
            while lowres < 3, max(header.width, header.height) >> (lowres + 1) >= request.maximumSide { lowres += 1 }
        }
        let frame: Frame
        do {
            let decoder = try PictureDecoder(input: input, stream: stream, codecs: codecs, maximumPixels: pixelLimit, lowres: lowres)
            frame = try Frame()
            var decoded = false
            try decoder.send(packet)
            decoded = try decoder.receive(into: frame)
            // An image file's picture may come in more than one packet.
            var packets = 1
            while !decoded, request.source == .imageFile, packets < 64, try input.read(into: packet) {
                packets += 1
                try decoder.send(packet)
                decoded = try decoder.receive(into: frame)
            }
            if !decoded {
                try decoder.send(nil)
                decoded = try decoder.receive(into: frame)
            }
            guard decoded else { throw HelperFailure("not a picture that can be read (no picture decoded)") }
        } catch let failure as HelperFailure {
            throw failure
        } catch let error as FFmpegError {
            throw HelperFailure("not a picture that can be read (\(error.message))")
        } catch {
            throw HelperFailure("not a picture that can be read")
        }
        // The full size (the header's, or the decoded one times the lowres factor).
        let width = header?.width ?? frame.width << lowres
        let height = header?.height ?? frame.height << lowres
        try check(width: width, height: height, bytesPerPixel: 1)
        let longest = max(width, height)
        let scale = min(1.0, Double(request.maximumSide) / Double(longest))
        let targetWidth = max(1, min(request.maximumSide, Int((Double(width) * scale).rounded())))
        let targetHeight = max(1, min(request.maximumSide, Int((Double(height) * scale).rounded())))
        let jpeg: [UInt8]
        do {
            let small = try PictureScaler.scaled(frame, width: targetWidth, height: targetHeight)
            jpeg = try JPEGEncoder.encode(small, quantiser: quantiser)
        } catch {
            throw HelperFailure("the thumbnail could not be made (\(error.message))")
        }
        guard !jpeg.isEmpty, jpeg.count <= WireThumbnailRequest.byteLimit else {
            throw HelperFailure("the thumbnail came to \(jpeg.count) bytes (at most \(WireThumbnailRequest.byteLimit))")
        }
        return jpeg
    }

    static func check(width: Int, height: Int, bytesPerPixel: Int) throws(HelperFailure) {
        guard width > 0, height > 0 else { throw HelperFailure("a picture of \(width) × \(height) pixels") }
        guard width <= sideLimit, height <= sideLimit, width * height <= pixelLimit,
              width * height * bytesPerPixel <= decodedByteLimit else {
            throw HelperFailure("a picture of \(width) × \(height) pixels is too big (at most \(sideLimit) a side, \(pixelLimit / 1_000_000) megapixels)")
        }
    }
}

import FFmpegClient
import FFmpegWire
import Foundation
import Testing
@testable import TestSupport

/// Cover thumbnails made by the helper (`thumbnail`): JPEGs at most the size asked, from an
/// audio file's picture or an image file; hostile pictures fail cleanly and the next is made.
@Suite(.waitsOnRealTime) struct ThumbnailHelperTests {
    @Test func anMP3sEmbeddedCoverBecomesA300PixelJPEG() throws {
        let folder = try Fixtures.makeDirectory()
        let cover = folder + "/cover.jpg"
        try picture(at: cover, width: 1200, height: 800)
        let file = folder + "/with-cover.mp3"
        try mp3(at: file, cover: cover)
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        let jpeg = try #require(try helper.thumbnail(of: file, source: .embedded, maximumSide: 300).get())
        let size = try #require(Self.jpegSize(jpeg))
        #expect(size.width == 300 && size.height == 200, "\(size)")
        #expect(jpeg.count < 100_000, "\(jpeg.count) bytes")
    }

    @Test func aFolderPNGBecomesA96PixelJPEG() throws {
        let folder = try Fixtures.makeDirectory()
        let png = folder + "/folder.png"
        try picture(at: png, width: 500, height: 640)
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        let jpeg = try #require(try helper.thumbnail(of: png, source: .imageFile, maximumSide: 96).get())
        let size = try #require(Self.jpegSize(jpeg))
        #expect(size.width == 75 && size.height == 96, "\(size)")
        // Never enlarged: asked at 4096, a 500 × 640 picture keeps its own size.
        let whole = try #require(try helper.thumbnail(of: png, source: .imageFile, maximumSide: 4096).get())
        let wholeSize = try #require(Self.jpegSize(whole))
        #expect(wholeSize.width == 500 && wholeSize.height == 640, "\(wholeSize)")
    }

    /// A camera's JPEG carries a small JPEG of itself in its EXIF segment: the picture read is
    /// the big one (FFmpeg's JPEG parser skips the segment).
    @Test func aJPEGWithAnEXIFThumbnailIsReadWhole() throws {
        let folder = try Fixtures.makeDirectory()
        let main = folder + "/main.jpg"
        try picture(at: main, width: 1200, height: 800)
        let small = folder + "/small.jpg"
        try picture(at: small, width: 160, height: 120)
        let body = Array("Exif\0\0".utf8) + Array(repeating: 0, count: 20) + (try Fixtures.contents(of: small))
        let segment: [UInt8] = [0xFF, 0xE1, UInt8((body.count + 2) >> 8), UInt8((body.count + 2) & 0xFF)] + body
        let bytes = try Fixtures.contents(of: main)
        let file = folder + "/photo.jpg"
        try Fixtures.write(Array(bytes.prefix(2)) + segment + Array(bytes.dropFirst(2)), to: file)
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        let jpeg = try #require(try helper.thumbnail(of: file, source: .imageFile, maximumSide: 600).get())
        let size = try #require(Self.jpegSize(jpeg))
        #expect(size.width == 600 && size.height == 400, "\(size)")
    }

    @Test func aFileWithoutAPictureHasNoThumbnail() throws {
        let file = try Fixtures.makeDirectory() + "/bare.mp3"
        try Fixtures.makeMP3(at: file, seconds: 1)
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        #expect(try helper.thumbnail(of: file, source: .embedded, maximumSide: 300).get() == nil)
    }

    @Test func garbageAndTruncatedPicturesFailAndTheNextIsMade() throws {
        let folder = try Fixtures.makeDirectory()
        let good = folder + "/good.png"
        try picture(at: good, width: 400, height: 400)
        let garbage = folder + "/garbage.jpg"
        var generator = SystemRandomNumberGenerator()
        try Fixtures.write((0..<20_000).map { _ in UInt8.random(in: 0...255, using: &generator) }, to: garbage)
        let fakeJPEG = folder + "/fake.jpg"
        try Fixtures.write([0xFF, 0xD8, 0xFF, 0xE0] + Array(repeating: 0x41, count: 5000), to: fakeJPEG)
        let truncatedPNG = folder + "/truncated.png"
        try Fixtures.write(Array(try Fixtures.contents(of: good).prefix(300)), to: truncatedPNG)
        let empty = folder + "/empty.png"
        try Fixtures.write([], to: empty)
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        let first = try #require(try helper.thumbnail(of: good, source: .imageFile, maximumSide: 300).get())
        let pid = helper.pid
        for bad in [garbage, fakeJPEG, truncatedPNG, empty] {
            for source in [ThumbnailHelper.Source.imageFile, .embedded] {
                let result = helper.thumbnail(of: bad, source: source, maximumSide: 300)
                guard case .failure(let error) = result else {
                    Issue.record("\(bad) (\(source)): \(result)")
                    continue
                }
                #expect(!error.isHelperFault, "\(bad) (\(source)): \(error)")
            }
            // The next picture is made, by the same helper.
            #expect(try helper.thumbnail(of: good, source: .imageFile, maximumSide: 300).get() == first)
            #expect(helper.pid == pid)
        }
        // A JPEG cut in the middle of its picture: FFmpeg shows what arrived (as browsers do) or
        // fails; either way the helper lives on.
        let whole = folder + "/whole.jpg"
        try picture(at: whole, width: 800, height: 800)
        let cut = folder + "/cut.jpg"
        let bytes = try Fixtures.contents(of: whole)
        try Fixtures.write(Array(bytes.prefix(bytes.count / 2)), to: cut)
        switch helper.thumbnail(of: cut, source: .imageFile, maximumSide: 300) {
        case .success(let jpeg?):
            print("a JPEG cut in half: a thumbnail of what arrived, \(jpeg.count) bytes")
            #expect(Self.jpegSize(jpeg).map { $0.width == 300 && $0.height == 300 } == true)
        case .success(nil): Issue.record("a cut JPEG had no picture")
        case .failure(let error):
            print("a JPEG cut in half: \(error)")
            #expect(!error.isHelperFault, "\(error)")
        }
        #expect(try helper.thumbnail(of: good, source: .imageFile, maximumSide: 300).get() == first)
        #expect(helper.pid == pid)
    }

    @Test func aHugePictureIsRefusedAtOnce() throws {
        let folder = try Fixtures.makeDirectory()
        // A PNG that says 40000 × 40000 (6.4 GB of RGBA), then a few bytes of picture.
        let png = folder + "/huge.png"
        try Fixtures.write(Self.png(width: 40_000, height: 40_000), to: png)
        // A run-length BMP of 1,098 bytes that says 12000 × 12000 (144 MB of pixels): read by no
        // header check of the helper's, refused by FFmpeg's decoder (max_pixels, 50 megapixels)
        // before it allocates the picture. Without it, `ffmpeg` decodes it in 3.4 s at 207 MB
        // resident. (FFmpeg refuses 16 000 × 16 000 and more by itself.)
        let bmp = folder + "/huge.bmp"
        try Fixtures.write(Self.bmp(width: 12_000, height: 12_000), to: bmp)
        // A JPEG whose frame header says 30000 × 30000.
        let jpeg = folder + "/huge.jpg"
        try Fixtures.write([0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x75, 0x30, 0x75, 0x30, 0x03,
                            0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01] + Array(repeating: 0, count: 2000), to: jpeg)
        let good = folder + "/good.png"
        try picture(at: good, width: 200, height: 100)
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        _ = try helper.thumbnail(of: good, source: .imageFile, maximumSide: 96).get()
        let pid = helper.pid
        for file in [png, bmp, jpeg] {
            let started = Date()
            let result = helper.thumbnail(of: file, source: .imageFile, maximumSide: 300)
            let took = Date().timeIntervalSince(started)
            guard case .failure(let error) = result else {
                Issue.record("\(file): \(result)")
                continue
            }
            print("\(file.split(separator: "/").last!): \(error) (\(String(format: "%.1f", took * 1000)) ms)")
            #expect(!error.isHelperFault, "\(error)")
            #expect(took < 2, "\(took) s")
        }
        let small = try #require(try helper.thumbnail(of: good, source: .imageFile, maximumSide: 96).get())
        #expect(Self.jpegSize(small).map { $0.width == 96 && $0.height == 48 } == true)
        #expect(helper.pid == pid)
    }

    @Test func aHelperThatDiesFailsOnePictureOnly() throws {
        let folder = try Fixtures.makeDirectory()
        let good = folder + "/good.png"
        try picture(at: good, width: 300, height: 300)
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        _ = try helper.thumbnail(of: good, source: .imageFile, maximumSide: 96).get()
        let pid = try #require(helper.pid)
        kill(pid, SIGKILL)
        Thread.sleep(forTimeInterval: 0.1)
        // The dead helper fails one request (or is noticed and replaced at once); the next works.
        _ = helper.thumbnail(of: good, source: .imageFile, maximumSide: 96)
        #expect(try helper.thumbnail(of: good, source: .imageFile, maximumSide: 96).get() != nil)
        #expect(helper.pid != pid)
    }

    @Test func aMissingFileOrAnUnaskedSizeIsRefused() throws {
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        guard case .failure(.refused) = helper.thumbnail(of: "/nonexistent/cover.jpg", source: .imageFile, maximumSide: 300) else {
            Issue.record("a missing file")
            return
        }
        let file = try Fixtures.makeDirectory() + "/cover.png"
        try picture(at: file, width: 100, height: 100)
        guard case .failure(.refused) = helper.thumbnail(of: file, source: .imageFile, maximumSide: 0) else {
            Issue.record("a size of 0")
            return
        }
        #expect(helper.pid == nil, "no helper started for nothing to do")
    }

    /// Not asserted: the time of one thumbnail of a 3000 × 3000 JPEG, once the helper runs.
    @Test func benchmarkA3000PixelJPEG() throws {
        let file = try Fixtures.makeDirectory() + "/big.jpg"
        try picture(at: file, width: 3000, height: 3000)
        let helper = ThumbnailHelper()
        defer { helper.stop() }
        let kib = try Fixtures.contents(of: file).count / 1024
        var started = Date()
        _ = try helper.thumbnail(of: file, source: .imageFile, maximumSide: 300).get()
        let first = Date().timeIntervalSince(started)
        print("thumbnail benchmark: 3000×3000 JPEG (\(kib) KiB) → 300 px, the first (the helper started): "
              + "\(String(format: "%.1f", first * 1000)) ms")
        for side in [96, 300, 600] {
            var times: [Double] = []
            var bytes = 0
            for _ in 0..<7 {
                started = Date()
                bytes = try #require(try helper.thumbnail(of: file, source: .imageFile, maximumSide: side).get()).count
                times.append(Date().timeIntervalSince(started))
            }
            times.sort()
            print("thumbnail benchmark: 3000×3000 JPEG (\(kib) KiB) → \(side) px: median \(String(format: "%.1f", times[3] * 1000)) ms "
                  + "(best \(String(format: "%.1f", times[0] * 1000)) ms) of 7, \(bytes) bytes")
        }
    }

    // MARK: Fixtures

    /// A test pattern (ffmpeg's testsrc2) as a JPEG or PNG by the name's extension.
    private func picture(at path: String, width: Int, height: Int) throws {
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=1",
                                    "-frames:v", "1"] + (path.hasSuffix(".jpg") ? ["-q:v", "3"] : []) + [path])
    }

    /// A one-second MP3 with `cover` as its ID3 front cover (APIC).
    private func mp3(at path: String, cover: String) throws {
        let bare = path + ".bare.mp3"
        try Fixtures.makeMP3(at: bare, seconds: 1)
        try Fixtures.run("ffmpeg", ["-v", "error", "-y", "-i", bare, "-i", cover, "-map", "0:a", "-map", "1:v", "-c", "copy",
                                    "-id3v2_version", "3", "-metadata:s:v", "comment=Cover (front)",
                                    "-disposition:v", "attached_pic", path])
    }

    /// Width and height from a JPEG's frame header (SOF0…SOF15 but DHT, JPG, DAC).
    static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count > 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var at = 2
        while at + 9 < bytes.count {
            guard bytes[at] == 0xFF else { return nil }
            let marker = bytes[at + 1]
            if marker == 0xFF { at += 1; continue }
            let length = Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                return (Int(bytes[at + 7]) << 8 | Int(bytes[at + 8]), Int(bytes[at + 5]) << 8 | Int(bytes[at + 6]))
            }
            at += 2 + length
        }
        return nil
    }

    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            return Fixtures.bigEndian32(UInt32(body.count)) + typed + Fixtures.bigEndian32(crc32(typed))
        }
        let header = Fixtures.bigEndian32(width) + Fixtures.bigEndian32(height) + [8, 6, 0, 0, 0]
        // A few bytes for the picture (never inflated: the size is refused first).
        let idat: [UInt8] = [0x78, 0x9C, 0xED, 0xC1, 0x01, 0x0D, 0x00, 0x00, 0x00, 0xC2, 0xA0, 0xF7, 0x4F, 0x6D, 0x0E, 0x37,
                             0xA0, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", idat) + chunk("IEND", [])
    }

    /// An 8-bit BMP compressed with RLE8: a grey palette, one run, the end of the bitmap.
    static func bmp(width: Int32, height: Int32) -> [UInt8] {
        func le32(_ value: Int32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        func le16(_ value: Int16) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
        var palette: [UInt8] = []
        for level in 0..<256 { palette += [UInt8(level), UInt8(level), UInt8(level), 0] }
        let runs: [UInt8] = [0xFF, 0x80, 0x00, 0x00, 0x00, 0x01]
        let offset = Int32(54 + palette.count)
        var bytes: [UInt8] = Array("BM".utf8)
        bytes += le32(offset + Int32(runs.count)) + le32(0) + le32(offset)
        bytes += le32(40) + le32(width) + le32(height)
        bytes += le16(1) + le16(8)
        bytes += le32(1) + le32(Int32(runs.count))
        bytes += le32(2835) + le32(2835) + le32(256) + le32(0)
        return bytes + palette + runs
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

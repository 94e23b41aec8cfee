import FFmpegWire
import Foundation
import Testing

/// The framed protocol between the daemon and aubade-ffmpeg, over a real socket pair: whole
/// frames of any size, descriptors passed along, and every way a broken or hostile peer can
/// break a frame refused with an error (never a trap, never a hang).
@Suite struct WireFrameTests {
    @Test func framesOfEverySizeArriveWhole() throws {
        let (a, b) = try WireSocket.pair()
        // Made before the clock runs: building 5 MiB element by element took most of the
        // receive timeout under ThreadSanitizer on a busy machine ("no answer in time").
        let payloads = [0, 1, 4095, 65_536, 5 * 1024 * 1024].map { size in
            (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        }
        // The sender on a thread of its own: a 5 MiB frame does not fit in the socket's buffer.
        nonisolated(unsafe) let sending = a
        let sender = Thread {
            for payload in payloads { try? sending.send(WireFrame(.pcm, payload)) }
        }
        sender.start()
        for payload in payloads {
            let frame = try b.receive(timeout: 30)
            #expect(frame.kind == .pcm)
            #expect(frame.payload.count == payload.count)
            #expect(frame.payload == payload)
        }
    }

    @Test func aDescriptorTravelsWithItsFrame() throws {
        let (a, b) = try WireSocket.pair()
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer { close(ends[0]) }
        try a.send(.text(.openFile, "mov"), passing: ends[0])
        let frame = try b.receive(timeout: 5)
        #expect(try frame.text() == "mov")
        let received = try #require(b.takeReceivedDescriptor())
        defer { close(received) }
        #expect(received != ends[0])
        // Close-on-exec: a helper the receiver starts does not inherit it.
        #expect(fcntl(received, F_GETFD) & FD_CLOEXEC != 0)
        #expect(write(ends[1], "hi", 2) == 2)
        close(ends[1])
        var bytes = [UInt8](repeating: 0, count: 4)
        #expect(read(received, &bytes, 4) == 2)
        #expect(bytes.prefix(2) == [UInt8(ascii: "h"), UInt8(ascii: "i")])
        #expect(b.takeReceivedDescriptor() == nil)
    }

    @Test(arguments: [
        (UInt32(0), UInt8(68)),                                   // no kind byte
        (UInt32(WireFrame.maximumLength + 1), UInt8(68)),         // bigger than any frame
        (UInt32.max, UInt8(68)),
        (UInt32(1), UInt8(200)),                                  // a kind that does not exist
    ])
    func brokenHeadersAreRefused(length: UInt32, kind: UInt8) throws {
        let (a, b) = try WireSocket.pair()
        var header: [UInt8] = withUnsafeBytes(of: length.littleEndian) { Array($0) }
        header.append(kind)
        #expect(send(a.descriptor, header, header.count, 0) == header.count)
        #expect(throws: WireError.self) { try b.receive(timeout: 2) }
        do {
            _ = try b.receive(timeout: 0.1)
        } catch {
            if case .malformed = error {} else if case .timedOut = error {} else { Issue.record("\(error)") }
        }
    }

    @Test func aSilentPeerTimesOutAndAGoneOneIsClosed() throws {
        let (a, b) = try WireSocket.pair()
        let started = Date()
        #expect(throws: WireError.timedOut) { try b.receive(timeout: 0.2) }
        #expect(Date().timeIntervalSince(started) < 1)
        // Half a frame, then the peer goes.
        _ = send(a.descriptor, [10, 0, 0, 0, 68, 1, 2], 7, 0)
        a.close()
        #expect(throws: WireError.closed) { try b.receive(timeout: 2) }
        // Sending to a peer that is gone is an error, not a SIGPIPE.
        let (c, d) = try WireSocket.pair()
        d.close()
        #expect(throws: WireError.self) {
            for _ in 0..<64 { try c.send(WireFrame(.pcm, [UInt8](repeating: 0, count: 65_536))) }
        }
    }

    @Test func payloadsRoundTrip() throws {
        let facts = TrackFacts(codecName: "alac", sampleRate: 44_100, channels: 2, lengthMicroseconds: 3_000_000,
                               lengthIsEstimate: false, hasCover: true, bytesRead: 51_200,
                               tags: [.init("title", "Café"), .init("track", "3/12")], bitsPerSample: 24)
        #expect(try TrackFacts(facts.frame) == facts)
        var untold = facts
        untold.bitsPerSample = nil
        #expect(try TrackFacts(untold.frame) == untold)
        let format = WireFormat(sampleRate: 48_000, channels: 2, exactFrames: 132_300, codecName: "aac")
        #expect(try WireFormat(format.frame) == format)
        let title = WireTitle(byteOffset: 4096, text: "Ann - Song", artist: "Ann", title: "Song")
        #expect(try WireTitle(title.frame) == title)
        let request = WireURLRequest(url: "https://example.org/live.m3u8", caFile: nil, userAgent: "Aubade")
        #expect(try WireURLRequest(request.frame) == request)
        let thumbnail = WireThumbnailRequest(source: .imageFile, maximumSide: 300)
        #expect(try WireThumbnailRequest(thumbnail.frame) == thumbnail)
        #expect(thumbnail.frame.kind == .thumbnail && thumbnail.frame.payload == [1, 44, 1, 0, 0])
    }

    @Test func hostilePayloadsAreRefused() throws {
        // A format of 0 Hz or 40 channels, a string longer than its payload, a truncated field.
        #expect(throws: WireError.self) { try WireFormat(WireFormat(sampleRate: 0, channels: 2, exactFrames: nil, codecName: "").frame) }
        #expect(throws: WireError.self) { try WireFormat(WireFormat(sampleRate: 44_100, channels: 40, exactFrames: nil, codecName: "").frame) }
        #expect(throws: WireError.self) { try WireFrame(.failure, [255, 255, 255, 127, 65]).text() }
        #expect(throws: WireError.self) { try WireFrame(.seeked, [1, 2, 3]).integer() }
        var tags = WireWriter()
        tags.string("aac"); tags.u32(44_100); tags.u32(2); tags.i64(-1); tags.u8(0); tags.u8(0); tags.i64(0)
        tags.u32(1_000_000)  // a million tags announced
        #expect(throws: WireError.self) { try TrackFacts(WireFrame(.tags, tags.bytes)) }
        // A thumbnail of an unknown source, of 0 or 100 000 pixels.
        #expect(throws: WireError.self) { try WireThumbnailRequest(WireFrame(.thumbnail, [2, 44, 1, 0, 0])) }
        #expect(throws: WireError.self) { try WireThumbnailRequest(WireThumbnailRequest(source: .embedded, maximumSide: 0).frame) }
        #expect(throws: WireError.self) { try WireThumbnailRequest(WireThumbnailRequest(source: .embedded, maximumSide: 100_000).frame) }
    }
}

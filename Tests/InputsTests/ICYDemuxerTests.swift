import Inputs
import Testing

@Suite struct ICYDemuxerTests {
    /// A body as a server sends it: `interval` bytes of audio, a metadata block, …
    private func body(audio: [UInt8], interval: Int, blocks: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        var rest = audio[...]
        var index = 0
        while !rest.isEmpty {
            out += rest.prefix(interval)
            rest = rest.dropFirst(interval)
            let block = index < blocks.count ? blocks[index] : []
            index += 1
            let padded = block + [UInt8](repeating: 0, count: (16 - block.count % 16) % 16)
            out.append(UInt8(padded.count / 16))
            out += padded
        }
        return out
    }

    private func run(_ demuxer: inout ICYDemuxer, _ bytes: [UInt8], pieceSize: Int) -> (audio: [UInt8], blocks: [[UInt8]]) {
        var audio: [UInt8] = []
        var blocks: [[UInt8]] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + pieceSize)
            for piece in demuxer.split(bytes[offset..<end]) {
                switch piece {
                case .audio(let slice): audio += slice
                case .metadata(let block): blocks.append(block)
                }
            }
            offset = end
        }
        return (audio, blocks)
    }

    @Test(arguments: [1, 7, 16, 100, 4096, 100_000])
    func separatesAudioFromMetadataWhateverThePieceSizes(pieceSize: Int) throws {
        let audio = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let title = Array("StreamTitle='A - B';".utf8)
        let bytes = body(audio: audio, interval: 1000, blocks: [title, [], title])
        var demuxer = try #require(ICYDemuxer(interval: 1000))
        let (out, blocks) = run(&demuxer, bytes, pieceSize: pieceSize)
        #expect(out == audio)
        #expect(blocks.count == 2)  // the empty block (length 0) is not reported
        #expect(blocks.first?.prefix(title.count).elementsEqual(title) == true)
    }

    @Test func withoutAnIntervalEverythingIsAudio() throws {
        var demuxer = try #require(ICYDemuxer(header: nil))
        #expect(demuxer.split([1, 2, 3][...]) == [.audio([1, 2, 3][...])])
        #expect(!demuxer.carriesMetadata)
    }

    @Test func aHostileLengthByteHoldsAtMost4080Bytes() throws {
        var demuxer = try #require(ICYDemuxer(interval: 4))
        let bytes: [UInt8] = [1, 2, 3, 4, 0xFF] + [UInt8](repeating: 0x41, count: 4080) + [9, 9]
        let (audio, blocks) = run(&demuxer, bytes, pieceSize: 333)
        #expect(audio == [1, 2, 3, 4, 9, 9])
        #expect(blocks.map(\.count) == [4080])
    }

    @Test(arguments: ["", "abc", "-1", "99999999999", "2000000", " 8192x"])
    func refusesAnIntervalThatIsNotASaneNumber(header: String) {
        #expect(ICYDemuxer(header: header) == nil)
    }

    @Test func acceptsUsualIntervals() {
        #expect(ICYDemuxer(header: "8192")?.carriesMetadata == true)
        #expect(ICYDemuxer(header: " 16000 ")?.carriesMetadata == true)
        #expect(ICYDemuxer(header: "0")?.carriesMetadata == false)
    }
}

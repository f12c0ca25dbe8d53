import Testing

@testable import Listen

@Suite struct IcyMetadataTests {
    /// Reads a stream with metadata back as a listener does: audio, and the titles of the blocks.
    func read(_ stream: [UInt8], interval: Int) -> (audio: [UInt8], titles: [String]) {
        var audio: [UInt8] = []
        var titles: [String] = []
        var index = 0
        while index < stream.count {
            let take = min(interval, stream.count - index)
            audio += stream[index..<index + take]
            index += take
            guard take == interval, index < stream.count else { break }
            let length = Int(stream[index]) * 16
            let block = stream[(index + 1)..<(index + 1 + length)]
            index += 1 + length
            if length > 0 {
                let text = String(decoding: block.prefix { $0 != 0 }, as: UTF8.self)
                titles.append(String(text.dropFirst("StreamTitle='".count).dropLast(2)))
            }
        }
        return (audio, titles)
    }

    @Test func blocksSayTheTitleInWholeSixteenByteBlocks() {
        let block = IcyMetadata.block(title: "Кино — Группа крови")
        #expect((block.count - 1) % 16 == 0 && Int(block[0]) == (block.count - 1) / 16)
        #expect(
            String(decoding: block.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
                == "StreamTitle='Кино — Группа крови';")
        // A title too long for 255 blocks is cut at a whole character.
        let long = IcyMetadata.block(title: String(repeating: "я", count: 5000))
        #expect(long[0] == 255 && long.count == 1 + 255 * 16)
        #expect(String(validating: long.dropFirst().prefix { $0 != 0 }, as: UTF8.self) != nil)
    }

    @Test func theInterleaverPutsABlockEveryIntervalAcrossChunks() {
        var interleaver = IcyMetadata.Interleaver(interval: 10)
        let audio = (0..<57).map { UInt8($0) }
        var stream: [UInt8] = []
        stream += interleaver.interleave(Array(audio[0..<7]), title: "One")
        stream += interleaver.interleave(Array(audio[7..<33]), title: "One")
        stream += interleaver.interleave(Array(audio[33..<57]), title: "Two")
        let (read, titles) = read(stream, interval: 10)
        #expect(read == audio)
        // The first block says "One", the next ones nothing until the title changes.
        #expect(titles == ["One", "Two"])
    }
}

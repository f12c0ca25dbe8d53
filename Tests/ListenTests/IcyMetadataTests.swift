import Foundation
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

    /// The fields of a metadata block as players read them (ffmpeg's `handle_metadata`, VLC,
    /// Icecast's relays): `key='value';` pairs, each value up to the first `';`.
    func fields(_ block: [UInt8]) -> [(String, String)] {
        var rest = Substring(String(decoding: block.dropFirst().prefix { $0 != 0 }, as: UTF8.self))
        var fields: [(String, String)] = []
        while let open = rest.range(of: "='"), let close = rest[open.upperBound...].range(of: "';") {
            fields.append((String(rest[..<open.lowerBound]), String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        return fields
    }

    @Test func aTitleCannotEndItsFieldOrAddAnother() {
        let injected = IcyMetadata.block(title: "Song';StreamUrl='http://evil.example/';")
        let read = fields(injected)
        #expect(read.map { $0.0 } == ["StreamTitle"])
        #expect(read.first?.1 == "Song’;StreamUrl=’http://evil.example/’;")
        // An apostrophe reads the same; a backslash is no escape (players keep it as it is).
        #expect(fields(IcyMetadata.block(title: "Guns N' Roses")).map { $0.1 } == ["Guns N’ Roses"])
        #expect(fields(IcyMetadata.block(title: #"a\';StreamUrl='x"#)).map { $0.0 } == ["StreamTitle"])
        // Control characters and noncharacters never reach a player.
        let controls = IcyMetadata.block(title: "Ctl\u{1}\u{2}\u{C}X\u{0}\r\n\u{85}\u{202E}\u{FFFE}Y")
        #expect(fields(controls).map { $0.1 } == ["CtlXY"])
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

import Foundation
import Testing

@testable import Formats

/// The JSON writer writes what Foundation's `JSONEncoder` with sorted keys writes.
@Suite struct JSONWriterTests {
    struct Sample: Encodable {
        var text: String
        var number: Int
        var flag: Bool
        var missing: String?
        var list: [Int]
    }

    @Test func stringsNumbersAndNestingAreFoundationsBytes() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let texts = [
            "", "plain", "Кино — «Группа крови»", #"a/b\c"d"#, "tab\tline\nreturn\rbell\u{07}\u{08}\u{0C}\u{1F}",
            "emoji 🎓 and \u{2028}", "\u{7F}\u{9F}",
        ]
        for text in texts {
            let sample = Sample(text: text, number: -42, flag: true, missing: nil, list: [1, 2, 3])
            var json = JSONWriter()
            json.object { json in
                json.field("flag", sample.flag)
                json.key("list")
                json.array(sample.list) { json, item in json.integer(item) }
                json.field("missing", sample.missing)
                json.field("number", sample.number)
                json.field("text", sample.text)
            }
            #expect(json.bytes == Array(try encoder.encode(sample)), "\(text)")
        }
        var empty = JSONWriter()
        empty.array([[Int]](), { json, _ in json.integer(0) })
        #expect(empty.bytes == Array("[]".utf8))
    }
}

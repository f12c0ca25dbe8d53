import Foundation
import Testing

@testable import Formats

/// Durations read from outside (a feed's `itunes:duration`, ffprobe's JSON) are finite numbers of
/// seconds: `inf` and `1e400` read as Doubles, and `Int(_:)` of one stops the process wherever the
/// catalogue shows an item's length (Subsonic's `duration`, the feed Campus writes).
@Suite struct DurationTests {
    @Test func aFeedsDurationIsAFiniteNumberOfSeconds() {
        #expect(RSS.duration("1:02:03") == 3723)
        #expect(RSS.duration("3723.5") == 3723.5)
        for text in ["inf", "-inf", "nan", "1e400", "1e300:00", "infinity", "99999999999", "-5"] {
            #expect(RSS.duration(text) == nil, "\(text)")
        }
    }

    @Test func ffprobesDurationIsAFiniteNumberOfSeconds() throws {
        let cases: [(text: String, seconds: Double)] = [
            ("12.5", 12.5), ("inf", 0), ("nan", 0), ("-3", 0), ("1e400", 0),
        ]
        for (text, seconds) in cases {
            let json = #"{"streams":[{"codec_type":"audio"}],"format":{"format_name":"mp3","duration":"\#(text)"}}"#
            let probe = try AudioProbe(json: Data(json.utf8), file: "a.mp3")
            #expect(probe.duration == seconds, "\(text)")
        }
    }
}

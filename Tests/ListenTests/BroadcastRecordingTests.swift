import Foundation
import Listen
import Testing

/// A recorded broadcast's episode title and file type.
@Suite struct BroadcastRecordingTests {
    @Test func theTitleIsTheStartInTheStationsZoneThenWhatItPlayedEachOnce() throws {
        let start = Date(timeIntervalSince1970: 1_795_420_800)  // 2026-11-23 08:00 UTC
        let minsk = try #require(TimeZone(identifier: "Europe/Minsk"))
        #expect(BroadcastRecording.title(startedAt: start, timeZone: minsk, titles: []) == "2026-11-23 11:00")
        #expect(
            BroadcastRecording.title(
                startedAt: start, timeZone: .gmt, titles: ["Morning show", " ", "News", "Morning show"])
                == "2026-11-23 08:00 · Morning show; News")
        let many = (1...7).map { "Song \($0)" }
        #expect(
            BroadcastRecording.title(startedAt: start, timeZone: .gmt, titles: many)
                == "2026-11-23 08:00 · Song 1; Song 2; Song 3; Song 4; Song 5; …")
        let long = BroadcastRecording.title(
            startedAt: start, timeZone: .gmt, titles: [String(repeating: "я", count: 900)])
        #expect(long.count == CatalogueLimits.title)
    }

    @Test func aBroadcastIsKeptInAFileItsTypeNames() {
        #expect(BroadcastRecording.fileExtension(contentType: "audio/mpeg") == "mp3")
        #expect(BroadcastRecording.fileExtension(contentType: "Audio/Ogg; codecs=opus") == "ogg")
        #expect(BroadcastRecording.fileExtension(contentType: "audio/aacp") == "aac")
        #expect(BroadcastRecording.fileExtension(contentType: "video/mp4") == nil)
    }
}

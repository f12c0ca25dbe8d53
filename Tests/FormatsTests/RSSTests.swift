import Foundation
import Testing

@testable import Formats

@Suite struct RSSTests {
    static func feed() throws -> Data {
        try Data(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
                "Data/podcast.rss"))
    }

    @Test func readsAPodcastWithItsITunesFields() throws {
        let feed = try RSS.read(try Self.feed())
        #expect(feed.title == "Science Hour & Friends")
        #expect(feed.description == "Weekly talks from the <b>physics</b> department.")
        #expect(feed.author == "Student Radio")
        #expect(feed.imageURL == "https://radio.example.org/science/cover.jpg", "itunes:image wins over <image>")
        #expect(feed.category == "Science")
        #expect(feed.language == "en")
        #expect(!feed.isExplicit)
        #expect(feed.episodes.count == 2, "an item without an enclosure is no episode")
        let second = feed.episodes[0]
        #expect(second.guid == "science-2")
        #expect(second.duration == 3723)
        #expect(second.number == 2)
        #expect(second.isExplicit)
        #expect(second.enclosureLength == 1_234_567)
        #expect(second.published == Date(timeIntervalSince1970: 1_781_028_000))
        let first = feed.episodes[1]
        #expect(first.guid == "https://radio.example.org/science/1.m4a", "without a guid, the enclosure URL")
        #expect(first.description == "Why the sky is blue.")
        #expect(first.duration == 95)
        #expect(first.enclosureType == "audio/mp4")
        #expect(first.published == Date(timeIntervalSince1970: 1_780_423_200))
    }

    @Test func whatItWritesItReadsBack() throws {
        let feed = try RSS.read(try Self.feed())
        let written = RSS.write(feed, selfURL: "https://campus.example.org/api/v1/podcasts/1/rss?key=k")
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains("xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\""))
        #expect(text.contains("Science Hour &amp; Friends"))
        let again = try RSS.read(written)
        #expect(again.title == feed.title)
        #expect(again.author == feed.author)
        #expect(again.episodes.map(\.guid) == feed.episodes.map(\.guid))
        #expect(again.episodes.map(\.duration) == [3723, 95])
        #expect(again.episodes.map(\.published) == feed.episodes.map(\.published))
    }

    @Test func writtenTextIsEscapedAndHoldsOnlyXMLCharacters() throws {
        var feed = try RSS.read(try Self.feed())
        feed.title = "<b>\"Tom & Jerry\"</b>\u{1}\u{FFFE} — «Подкаст»"
        feed.episodes[0].enclosureURL = "https://radio.example.org/a.mp3?x=1&y=\"2\""
        let written = RSS.write(feed, selfURL: "https://campus.example.org/rss?a=1&b=2")
        let text = String(decoding: written, as: UTF8.self)
        #expect(text.contains("<title>&lt;b&gt;\"Tom &amp; Jerry\"&lt;/b&gt; — «Подкаст»</title>"))
        #expect(text.contains("url=\"https://radio.example.org/a.mp3?x=1&amp;y=&quot;2&quot;\""))
        #expect(!text.unicodeScalars.contains { $0.value == 1 || $0.value == 0xFFFE })
        let again = try RSS.read(written)
        #expect(again.title == "<b>\"Tom & Jerry\"</b> — «Подкаст»")
        #expect(again.episodes[0].enclosureURL == feed.episodes[0].enclosureURL)
    }

    @Test func refusesWhatIsNotAFeed() {
        #expect(throws: FeedError.self) { try RSS.read(Data()) }
        #expect(throws: FeedError.self) { try RSS.read(Data("<html><body>no</body></html>".utf8)) }
        #expect(throws: FeedError.self) { try RSS.read(Data("<rss><channel><title>x".utf8)) }
        #expect(throws: FeedError.self) {
            try RSS.read(
                Data(
                    """
                    <?xml version="1.0"?><!DOCTYPE rss [<!ENTITY a "aaaa">]>
                    <rss><channel><title>&a;</title></channel></rss>
                    """.utf8))
        }
        #expect(throws: FeedError.self) { try RSS.read(Data("<rss><channel></channel></rss>".utf8)) }
    }

    @Test func durationsAndDates() {
        #expect(RSS.duration("62:03") == 3723)
        #expect(RSS.duration("12.5") == 12.5)
        #expect(RSS.duration("abc") == nil)
        #expect(RSS.date("Tue, 02 Jun 2026 18:00:00 GMT") == Date(timeIntervalSince1970: 1_780_423_200))
        #expect(RSS.date("2026-06-02T18:00:00Z") == Date(timeIntervalSince1970: 1_780_423_200))
        #expect(RSS.date("yesterday") == nil)
    }
}

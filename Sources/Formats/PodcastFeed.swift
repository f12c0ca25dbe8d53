import Foundation
import Listen
import Localization

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A podcast as an RSS 2.0 feed with Apple's iTunes namespace describes it.
public struct PodcastFeed: Sendable, Equatable {
    public struct Episode: Sendable, Equatable {
        /// The `guid`, or else the enclosure URL: what finds the episode again on the next import.
        public var guid: String
        public var title: String
        public var description: String
        public var published: Date?
        public var enclosureURL: String
        public var enclosureType: String
        public var enclosureLength: Int64
        /// Seconds, from `itunes:duration` (`1:02:03`, `62:03` or `3723`).
        public var duration: Double?
        public var number: Int?
        public var isExplicit: Bool

        public init(
            guid: String, title: String, description: String = "", published: Date? = nil, enclosureURL: String,
            enclosureType: String = "audio/mpeg", enclosureLength: Int64 = 0, duration: Double? = nil,
            number: Int? = nil, isExplicit: Bool = false
        ) {
            self.guid = guid
            self.title = title
            self.description = description
            self.published = published
            self.enclosureURL = enclosureURL
            self.enclosureType = enclosureType
            self.enclosureLength = enclosureLength
            self.duration = duration
            self.number = number
            self.isExplicit = isExplicit
        }
    }

    public var title: String
    public var link: String?
    public var description: String
    public var author: String?
    public var imageURL: String?
    public var category: String?
    public var language: String?
    public var isExplicit: Bool
    public var episodes: [Episode]

    public init(
        title: String, link: String? = nil, description: String = "", author: String? = nil, imageURL: String? = nil,
        category: String? = nil, language: String? = nil, isExplicit: Bool = false, episodes: [Episode]
    ) {
        self.title = title
        self.link = link
        self.description = description
        self.author = author
        self.imageURL = imageURL
        self.category = category
        self.language = language
        self.isExplicit = isExplicit
        self.episodes = episodes
    }
}

/// Why a feed cannot be imported, in words for the person importing it.
public struct FeedError: PhrasedError, Sendable, Equatable {
    /// The words, and what they were made from (a translation looks them up).
    public var phrase: Phrase

    /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
    /// are `values`, as for a ``FieldProblem``.
    public init(detail message: String, _ values: [String: String] = [:]) {
        self.phrase = Phrase(message, values)
    }

    public init(_ phrase: Phrase) { self.phrase = phrase }
}

/// Reads and writes RSS 2.0 podcast feeds with the iTunes namespace, with FoundationXML (libxml2);
/// feeds that declare a DOCTYPE, in whatever encoding, are refused before parsing (``XMLInput``).
public enum RSS {
    public static let maximumBytes = 10 << 20
    public static let maximumEpisodes = 5000
    static let itunes = "http://www.itunes.com/dtds/podcast-1.0.dtd"

    public static func read(_ data: Data) throws(FeedError) -> PodcastFeed {
        guard data.count <= maximumBytes else {
            throw FeedError(detail: "The feed is larger than {size} MiB.", ["size": String(maximumBytes >> 20)])
        }
        guard !data.isEmpty else { throw FeedError(detail: "The feed is empty.") }
        let prepared: Data
        do {
            prepared = try XMLInput.prepared(data)
        } catch {
            throw FeedError(error.phrase)
        }
        let reader = Reader()
        let parser = XMLParser(data: prepared)
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false
        parser.delegate = reader
        let parsed = parser.parse()
        guard parsed else {
            let message = XMLInput.reason(parser, firstError: reader.firstError)
            throw FeedError(
                detail: "The feed is not well-formed XML (line {line}): {reason}",
                ["line": String(parser.lineNumber), "reason": message])
        }
        guard reader.sawChannel else {
            throw FeedError(detail: "The file is XML but not an RSS feed: it has no <channel>.")
        }
        let title = reader.channel["title"]?.trimmed ?? ""
        guard !title.isEmpty else { throw FeedError(detail: "The feed's channel has no title.") }
        guard reader.episodes.count <= maximumEpisodes else {
            throw FeedError(detail: "The feed has more than {maximum} episodes.", ["maximum": String(maximumEpisodes)])
        }
        let feed = PodcastFeed(
            title: title, link: reader.channel["link"]?.trimmed.nonEmpty,
            description: (reader.channel["description"] ?? reader.channel["itunes:summary"] ?? "").trimmed,
            author: reader.channel["itunes:author"]?.trimmed.nonEmpty, imageURL: reader.channelImage?.trimmed.nonEmpty,
            category: reader.category?.trimmed.nonEmpty, language: reader.channel["language"]?.trimmed.nonEmpty,
            isExplicit: explicit(reader.channel["itunes:explicit"]), episodes: reader.episodes)
        try check(feed)
        return feed
    }

    /// Every field of a feed against ``CatalogueLimits``, and its links: the feed's image and
    /// every enclosure must be an http or https URL (never a file or another scheme).
    static func check(_ feed: PodcastFeed) throws(FeedError) {
        do throws(CatalogueLimitProblem) {
            try CatalogueLimits.check(feed.title, Phrase("The channel's title"), limit: CatalogueLimits.title)
            try CatalogueLimits.check(feed.link, Phrase("The channel's link"), limit: CatalogueLimits.link)
            try CatalogueLimits.check(
                feed.description, Phrase("The channel's description"), limit: CatalogueLimits.description,
                multiline: true)
            try CatalogueLimits.check(feed.author, Phrase("The channel's itunes:author"), limit: CatalogueLimits.name)
            try CatalogueLimits.check(
                feed.category, Phrase("The channel's itunes:category"), limit: CatalogueLimits.name)
            try CatalogueLimits.check(feed.language, Phrase("The channel's language"), limit: 40)
            try CatalogueLimits.check(feed.imageURL, Phrase("The channel's image"), limit: CatalogueLimits.link)
            if let image = feed.imageURL, !isWebURL(image) {
                throw CatalogueLimitProblem(
                    Phrase("{field} is not an http or https URL.", parts: ["field": Phrase("The channel's image")]))
            }
            for (index, episode) in feed.episodes.enumerated() {
                let item = ["item": String(index + 1)]
                try CatalogueLimits.check(
                    episode.guid, Phrase("The guid of item {item}", item), limit: CatalogueLimits.guid)
                try CatalogueLimits.check(
                    episode.title, Phrase("The title of item {item}", item), limit: CatalogueLimits.title)
                try CatalogueLimits.check(
                    episode.description, Phrase("The description of item {item}", item),
                    limit: CatalogueLimits.description, multiline: true)
                try CatalogueLimits.check(
                    episode.enclosureURL, Phrase("The enclosure url of item {item}", item), limit: CatalogueLimits.link)
                try CatalogueLimits.check(
                    episode.enclosureType, Phrase("The enclosure type of item {item}", item), limit: 100)
                try CatalogueLimits.check(episode.published, Phrase("The pubDate of item {item}", item))
                if !isWebURL(episode.enclosureURL) {
                    throw CatalogueLimitProblem(
                        Phrase(
                            "{field} is not an http or https URL.",
                            parts: ["field": Phrase("The enclosure url of item {item}", item)]))
                }
            }
        } catch {
            throw FeedError(error.phrase)
        }
    }

    /// An absolute http or https URL with a host.
    public static func isWebURL(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), let host = url.host else {
            return false
        }
        return (scheme == "http" || scheme == "https") && !host.isEmpty
    }

    static func explicit(_ text: String?) -> Bool {
        ["yes", "true", "explicit"].contains(text?.trimmed.lowercased() ?? "")
    }

    /// `1:02:03`, `62:03`, `3723` or `3723.5` seconds.
    static func duration(_ text: String?) -> Double? {
        guard let text = text?.trimmed, !text.isEmpty, text.count <= 20 else { return nil }
        var seconds = 0.0
        for part in text.split(separator: ":", omittingEmptySubsequences: false) {
            guard let value = Double(part), value.isFinite, value >= 0 else { return nil }
            seconds = seconds * 60 + value
        }
        // `inf` and `1e400` read as Doubles too; a length nobody listens to is no length.
        return seconds < longestDuration ? seconds : nil
    }

    /// The longest duration read (about 31 years): below it, seconds stay whole numbers that
    /// every reader of the catalogue can convert.
    static let longestDuration = 1e9

    static let rfc822: [DateFormatter] = [
        "EEE, dd MMM yyyy HH:mm:ss Z", "dd MMM yyyy HH:mm:ss Z", "EEE, dd MMM yyyy HH:mm Z",
    ]
    .map { format in
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = format
        return formatter
    }

    /// An RFC 822 date as RSS writes it (`Tue, 03 Jun 2026 09:00:00 +0000`, or `GMT`).
    public static func date(_ text: String?) -> Date? {
        // RFC 822 dates are printable ASCII; Foundation's DateFormatter traps on some other text
        // (found by Fuzz/FuzzDates), so nothing else reaches it.
        guard let text = text?.trimmed, !text.isEmpty, text.utf8.count <= 64,
            text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F })
        else { return nil }
        let normalized = text.replacingOccurrences(of: " GMT", with: " +0000").replacingOccurrences(
            of: " UT", with: " +0000")
        for formatter in rfc822 {
            if let date = formatter.date(from: normalized) { return date }
        }
        return try? Date(text, strategy: .iso8601)
    }

    public static func rfc822Text(_ date: Date) -> String { rfc822[0].string(from: date) }

    private final class Reader: NSObject, XMLParserDelegate {
        var channel: [String: String] = [:]
        var channelImage: String?
        var category: String?
        var episodes: [PodcastFeed.Episode] = []
        var sawChannel = false
        private var item: [String: String]?
        private var enclosure: [String: String] = [:]
        private var itemImage: String?
        private var path: [String] = []
        private var text = ""

        /// The parser's first error; parsing stops at the next event (``XMLInput/stopped(_:after:)``).
        var firstError: (any Error)?

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if firstError == nil { firstError = parseError }
        }

        private func name(_ element: String, _ namespace: String?) -> String {
            namespace == RSS.itunes ? "itunes:\(element)" : element
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            let element = name(elementName, namespaceURI)
            path.append(element)
            text = ""
            switch element {
            case "channel": sawChannel = true
            case "item":
                item = [:]
                enclosure = [:]
                itemImage = nil
            case "enclosure" where item != nil: enclosure = attributes
            case "itunes:image":
                if item == nil {
                    channelImage = channelImage ?? attributes["href"]
                } else {
                    itemImage = attributes["href"]
                }
            case "itunes:category" where item == nil && category == nil: category = attributes["text"]
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            if text.utf8.count < 100_000 { text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA block: Data) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            if text.utf8.count < 100_000 { text += String(decoding: block, as: UTF8.self) }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            let element = name(elementName, namespaceURI)
            defer { path.removeLast() }
            let parent = path.dropLast().last
            if element == "item", let fields = item {
                if let url = enclosure["url"]?.trimmed, !url.isEmpty {
                    let guid = fields["guid"]?.trimmed.nonEmpty ?? url
                    episodes.append(
                        PodcastFeed.Episode(
                            guid: guid,
                            title: fields["title"]?.trimmed.nonEmpty ?? "Episode",
                            description: (fields["description"] ?? fields["itunes:summary"] ?? "").trimmed,
                            published: RSS.date(fields["pubDate"]), enclosureURL: url,
                            enclosureType: enclosure["type"]?.trimmed.nonEmpty ?? "audio/mpeg",
                            enclosureLength: Int64(enclosure["length"]?.trimmed ?? "") ?? 0,
                            duration: RSS.duration(fields["itunes:duration"]),
                            number: fields["itunes:episode"].flatMap { Int($0.trimmed) },
                            isExplicit: RSS.explicit(fields["itunes:explicit"])))
                }
                item = nil
            } else if item != nil, parent == "item" {
                item?[element] = text
            } else if parent == "channel" {
                channel[element] = text
            } else if element == "url", parent == "image", channelImage == nil, item == nil {
                channelImage = text.trimmed
            }
        }
    }

    // MARK: Writing

    /// The feed as RSS 2.0 with the iTunes namespace, for podcast apps and feed readers.
    ///
    /// Written as text (``XMLWriter``) rather than with FoundationXML's `XMLDocument`: on Linux
    /// each feed built with it kept about 0.8 KB after it was freed (Fuzz/FuzzRSS reading and
    /// writing a small feed 60,000 times: the resident memory grew by that much per feed; as
    /// text it stays flat), and Campus writes a feed for every podcast app that polls one.
    public static func write(_ feed: PodcastFeed, selfURL: String) -> Data {
        var xml = XMLWriter()
        xml.open("rss", ["version": "2.0", "xmlns:itunes": itunes, "xmlns:atom": "http://www.w3.org/2005/Atom"])
        xml.open("channel")
        xml.element("title", feed.title)
        xml.element("link", feed.link ?? selfURL)
        xml.element("description", feed.description.isEmpty ? feed.title : feed.description)
        xml.element("atom:link", attributes: ["href": selfURL, "rel": "self", "type": "application/rss+xml"])
        if let language = feed.language { xml.element("language", language) }
        xml.element("generator", "Campus")
        if let author = feed.author { xml.element("itunes:author", author) }
        xml.element("itunes:summary", feed.description)
        xml.element("itunes:explicit", feed.isExplicit ? "true" : "false")
        if let image = feed.imageURL { xml.element("itunes:image", attributes: ["href": image]) }
        if let category = feed.category { xml.element("itunes:category", attributes: ["text": category]) }
        for episode in feed.episodes {
            xml.open("item")
            xml.element("title", episode.title)
            xml.element("guid", episode.guid, attributes: ["isPermaLink": "false"])
            if let published = episode.published { xml.element("pubDate", rfc822Text(published)) }
            xml.element("description", episode.description)
            xml.element(
                "enclosure",
                attributes: [
                    "url": episode.enclosureURL, "type": episode.enclosureType,
                    "length": String(episode.enclosureLength),
                ])
            if let duration = episode.duration, duration >= 0, duration < longestDuration {
                xml.element("itunes:duration", String(Int(duration.rounded())))
            }
            if let number = episode.number, number > 0 { xml.element("itunes:episode", String(number)) }
            xml.element("itunes:explicit", episode.isExplicit ? "true" : "false")
            xml.close("item")
        }
        xml.close("channel")
        xml.close("rss")
        return Data(xml.text.utf8)
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
    fileprivate var nonEmpty: String? { isEmpty ? nil : self }
}

import Accounts
import CampusHTTP
import Formats
import Foundation
import InputRules
import Listen
import Localization
import Logging
import NIOCore
import NIOPosix
import Storage

/// What a podcast import did.
public struct PodcastImportSummary: Sendable, Equatable {
    public var podcastID: Int64
    public var title: String
    public var added = 0
    public var updated = 0
    /// The items left out, each with why: an enclosure Campus would not send a player to
    /// (``Podcasts/refusal(ofEnclosure:item:allowPrivate:)``).
    public var skipped: [Phrase] = []
}

/// Imports podcasts from RSS 2.0 feeds with the iTunes namespace (a URL or a file), and writes
/// Campus's own feed of a podcast or programme.
public struct Podcasts: Sendable {
    let database: Database
    let mediaDirectory: String
    let logger: Logger
    let now: @Sendable () -> Date
    /// Whether feeds and covers may come from loopback, private and link-local addresses.
    let allowPrivateAddresses: Bool
    /// How long fetching a feed or a cover may take in all.
    let deadline: Duration
    /// Who is told of new episodes (the server's; the command line tells nobody).
    var notices: ListenNotices?
    /// Who imports, for the audit log (an entry in the import's transaction); nil for the hourly
    /// refresh, which only reads again what an admin added.
    public var actor: AuditActor?

    public init(
        database: Database, mediaDirectory: String, logger: Logger, now: @escaping @Sendable () -> Date = { Date() },
        allowPrivateAddresses: Bool = false, deadline: Duration = Podcasts.defaultDeadline
    ) {
        self.database = database
        self.mediaDirectory = mediaDirectory
        self.logger = logger
        self.now = now
        self.allowPrivateAddresses = allowPrivateAddresses
        self.deadline = deadline
    }

    /// The same importer, telling a liked podcast's fans of its new episodes: the command line's
    /// (the running server delivers what it writes). Fans without a language of their own read
    /// `institutionLanguage` (English when Campus has no such catalogue).
    public func tellingFans(institutionLanguage: String, timeZone: TimeZone) throws -> Podcasts {
        let directory = try Resources.locate().translations
        let languages: Languages
        do {
            languages = try LocalizedTemplates.languages(directory: directory, institutionDefault: institutionLanguage)
        } catch {
            languages = try LocalizedTemplates.languages(directory: directory, institutionDefault: "en")
        }
        var podcasts = self
        podcasts.notices = ListenNotices(languages: languages, timeZone: timeZone, now: now)
        return podcasts
    }

    /// How long a feed or a cover may take to arrive, connecting and redirects included.
    public static let defaultDeadline: Duration = .seconds(15)

    /// The largest cover image fetched.
    static let maximumCoverBytes = 10 << 20

    public struct Failed: PhrasedError {
        /// The words, and what they were made from (a translation looks them up).
        public var phrase: Phrase

        /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
        /// are `values`, as for a ``FieldProblem``.
        public init(detail message: String, _ values: [String: String] = [:]) {
            self.phrase = Phrase(message, values)
        }

        public init(_ phrase: Phrase) { self.phrase = phrase }
    }

    /// Reads the feed at `source` (an http(s) URL, or a file when `allowFiles`: the command line)
    /// and adds the podcast, or updates it when it was imported before: episodes are found again
    /// by their guid and keep their ids. Episodes play from the feed's enclosure URLs, which the
    /// listener's device fetches; Campus fetches only the feed and its cover.
    ///
    /// An item whose enclosure Campus would not send a player to (``OutboundURL``'s rule: this
    /// machine or a private network, unless private addresses are allowed) is left out, and the
    /// summary says why; the rest of the feed is imported. A feed whose every item is left out
    /// is refused with the first item's reason.
    ///
    /// `keepingCover` (the server's periodic refresh) leaves a cover the podcast already has as it
    /// is: the image is not fetched and resized every hour, and a cover host that fails once does
    /// not take the cover away.
    public func add(_ source: String, allowFiles: Bool = false, keepingCover: Bool = false) async throws
        -> PodcastImportSummary
    {
        let data = try await load(source, allowFiles: allowFiles)
        let feed: PodcastFeed
        do {
            feed = try await NIOThreadPool.singleton.runIfActive { try RSS.read(data) }
        } catch let error as FeedError {
            throw Failed(error.phrase)
        }
        let refusals = feed.episodes.enumerated().map { index, episode in
            Self.refusal(ofEnclosure: episode.enclosureURL, item: index + 1, allowPrivate: allowPrivateAddresses)
        }
        let episodes = zip(feed.episodes, refusals).filter { $0.1 == nil }.map { $0.0 }
        let skipped = refusals.compactMap { $0 }
        if episodes.isEmpty, let first = skipped.first { throw Failed(first) }
        if let first = skipped.first {
            logger.warning(
                "Podcast items left out",
                metadata: ["feed": "\(source)", "count": "\(skipped.count)", "first": "\(first.text)"])
        }
        let now = now()
        let summary = try await database.write { [notices, actor] db in
            let store = ListenStore(db)
            var authorID: Int64?
            var genreID: Int64?
            if let author = feed.author { authorID = try await store.authorID(named: author) }
            if let category = feed.category { genreID = try await store.genreID(named: category) }
            let parentID = try await store.saveParent(
                source: "feed:\(source)",
                ParentDraft(
                    kind: .podcast, title: feed.title, authorID: authorID, genreID: genreID, year: nil,
                    description: feed.description, feedURL: source),
                now: now)
            var summary = PodcastImportSummary(podcastID: parentID, title: feed.title, skipped: skipped)
            let known = Set(try await store.children(of: parentID, kind: .podcast).map(\.id))
            var added: [(id: Int64, title: String)] = []
            for episode in episodes {
                let id = try await store.saveMedia(
                    MediaDraft(
                        kind: .podcastEpisode, parentID: parentID, title: episode.title, authorID: authorID,
                        genreID: genreID, disc: 1, number: episode.number ?? 0, duration: episode.duration ?? 0,
                        isExplicit: episode.isExplicit || feed.isExplicit, description: episode.description,
                        publishedAt: episode.published, path: nil, url: episode.enclosureURL, guid: episode.guid,
                        size: episode.enclosureLength, modified: 0, contentType: episode.enclosureType, bitrate: nil),
                    now: now)
                if known.contains(id) {
                    summary.updated += 1
                } else {
                    summary.added += 1
                    added.append((id, episode.title))
                }
            }
            // A podcast seen before tells its fans what is new (a first import is nothing new).
            if !known.isEmpty {
                try await notices?.newEpisodes(podcastID: parentID, podcast: feed.title, episodes: added, in: db)
            }
            if let actor {
                try await AuditStore(db).record(
                    AuditEntry(
                        at: now, action: .podcastAdded, actor: actor,
                        target: AuditTarget(kind: "podcast", id: parentID, label: feed.title),
                        after: "\(source) (+\(summary.added), \(summary.updated) updated)"))
            }
            return summary
        }
        if let image = feed.imageURL {
            var hasCover = false
            if keepingCover {
                hasCover = try await database.read { db in
                    try await ListenStore(db).cover(parentID: summary.podcastID) != nil
                }
            }
            if !hasCover { await saveCover(summary.podcastID, from: image) }
        }
        logger.notice(
            "Podcast imported",
            metadata: ["feed": "\(source)", "added": "\(summary.added)", "updated": "\(summary.updated)"])
        return summary
    }

    /// Why Campus would not send a player to an item's enclosure, if it would not: the words
    /// the import gives for an item it leaves out.
    static func refusal(ofEnclosure url: String, item: Int, allowPrivate: Bool) -> Phrase? {
        do throws(OutboundURL.Refusal) {
            _ = try OutboundURL(url, allowPrivate: allowPrivate)
            return nil
        } catch {
            let number = String(item)
            switch error {
            case .notWebURL:
                return Phrase(
                    "{field} is not an http or https URL.",
                    parts: ["field": Phrase("The enclosure url of item {item}", ["item": number])])
            case .privateHost(let host, _):
                return Phrase(
                    "The enclosure url of item {item} points at {host}, a loopback, private or link-local address.",
                    ["item": number, "host": String(host.prefix(100))])
            }
        }
    }

    private var fetcher: OutboundFetch {
        OutboundFetch(
            addresses: allowPrivateAddresses ? .any : .publicOnly, deadline: deadline, maximumBytes: RSS.maximumBytes,
            headers: [("User-Agent", "Campus podcast import")])
    }

    private func load(_ source: String, allowFiles: Bool) async throws -> Data {
        if let url = URL(string: source), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" {
            var fetcher = fetcher
            fetcher.headers.append(("Accept", "application/rss+xml, application/xml, text/xml"))
            let fetched: OutboundFetch.Fetched
            do {
                fetched = try await fetcher.get(source)
            } catch let error as OutboundFetch.Failed {
                throw Failed(error.phrase)
            }
            guard (200..<300).contains(fetched.status) else {
                throw Failed(detail: "{url} answered {status}.", ["url": source, "status": String(fetched.status)])
            }
            return fetched.body
        }
        guard allowFiles else { throw Failed(detail: "“{text}” is not an http or https URL.", ["text": source]) }
        let path = source.hasPrefix("file://") ? String(source.dropFirst("file://".count)) : source
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
            let size = (attributes[.size] as? NSNumber)?.intValue
        else {
            throw Failed(detail: "{source} is neither an http(s) URL nor a file Campus can read.", ["source": source])
        }
        guard size <= RSS.maximumBytes else {
            throw Failed(
                detail: "{url} is larger than {size}.",
                ["url": source, "size": ByteCount(RSS.maximumBytes).description])
        }
        return try Data(contentsOf: URL(fileURLWithPath: path))
    }

    /// Fetches the feed's cover (with the feed's limits) into a file of its own and makes the
    /// podcast's cover sizes of it; a cover that cannot be fetched or read leaves none.
    private func saveCover(_ podcastID: Int64, from url: String) async {
        var fetcher = fetcher
        fetcher.maximumBytes = Self.maximumCoverBytes
        fetcher.headers.append(("Accept", "image/*"))
        let scanner = LibraryScanner(database: database, mediaDirectory: mediaDirectory, logger: logger, now: now)
        let file = URL(fileURLWithPath: mediaDirectory).appendingPathComponent(
            "covers/.fetched-\(podcastID)-\(UUID().uuidString).image")
        do {
            let fetched = try await fetcher.get(url)
            guard (200..<300).contains(fetched.status) else {
                throw OutboundFetch.Failed(
                    detail: "{url} answered {status}.", ["url": url, "status": String(fetched.status)])
            }
            try FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fetched.body.write(to: file)
            await scanner.saveCover(parentID: podcastID, from: file.path, isImage: true)
        } catch {
            logger.warning(
                "Cannot fetch a podcast's cover", metadata: ["url": "\(url)", "error": "\(ErrorLog.text(error))"])
            await scanner.saveCover(parentID: podcastID, from: nil)
        }
        try? FileManager.default.removeItem(at: file)
    }

    // MARK: Our feeds

    /// Campus's RSS feed of a podcast or programme: enclosure and image links carry keys, so
    /// podcast apps play them without logging in.
    static func feed(_ parentID: Int64, services: Services) async throws -> Data? {
        let base = services.configuration.resolvedBaseURL
        let found = try await services.database.read { db -> (Parent, [MediaItem])? in
            let store = ListenStore(db)
            guard let parent = try await store.parent(id: parentID),
                parent.kind == .podcast || parent.kind == .programme
            else { return nil }
            return (parent, try await store.children(of: parentID, kind: parent.kind))
        }
        guard let (parent, items) = found else { return nil }
        let links = services.links
        let feed = PodcastFeed(
            title: parent.title, link: base + SiteRoutes.parent(parent.kind).path(parent.id),
            description: parent.description,
            author: parent.author?.name,
            imageURL: parent.hasCover
                ? base
                    + APIRoutes.cover.path(
                        parent.id, ImageSize.large.rawValue, query: [("key", links.key(for: "cover:\(parent.id)"))])
                : nil,
            category: parent.genre?.name, isExplicit: false,
            episodes: items.map { item in
                PodcastFeed.Episode(
                    guid: "campus-media-\(item.id)", title: item.title, description: item.description,
                    published: item.publishedAt ?? item.updatedAt,
                    enclosureURL: base
                        + APIRoutes.mediaStream.path(item.id, query: [("key", links.key(for: "media:\(item.id)"))]),
                    enclosureType: item.contentType, enclosureLength: item.size, duration: item.duration,
                    number: item.number, isExplicit: item.isExplicit)
            })
        return RSS.write(feed, selfURL: "\(base)\(feedPath(parent, links: links))")
    }

    /// The path of a parent's feed, with its key.
    static func feedPath(_ parent: Parent, links: LinkSigner) -> String {
        APIRoutes.feed(parent.kind).path(parent.id, query: [("key", links.key(for: "rss:\(parent.id)"))])
    }
}

import Foundation
import Listen
import Localization

/// The models of the listening pages (templates `listen*`, partials `listen-items`,
/// `listen-mark` and `listen-nav`).

/// Words and lengths as the listening pages show them.
enum ListenText {
    /// 3:07, or 1:02:03 for an hour or more.
    static func duration(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let secondsText = rest < 10 ? "0\(rest)" : "\(rest)"
        if hours > 0 { return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(secondsText)" }
        return "\(minutes):\(secondsText)"
    }

    /// A kind of album-like thing, as a list of them is headed: "Podcasts".
    static func title(_ kind: ParentKind, _ t: Translator) -> String {
        switch kind {
        case .album: t("Albums")
        case .podcast: t("Podcasts")
        case .audiobook: t("Audiobooks")
        case .programme: t("Lectures and programmes")
        }
    }

    /// One of them, as its badge says: "podcast".
    static func badge(_ kind: ParentKind, _ t: Translator) -> String {
        switch kind {
        case .album: t("album", context: "kind")
        case .podcast: t("podcast", context: "kind")
        case .audiobook: t("audiobook", context: "kind")
        case .programme: t("programme", context: "kind")
        }
    }

    /// A playlist Campus makes from the listener's listening.
    static func title(_ playlist: SystemPlaylist, _ t: Translator) -> String {
        switch playlist {
        case .recentlyPlayed: t("Recently played")
        case .mostPlayed: t("Most played")
        case .recommended: t("Recommended for you")
        }
    }

    /// What a system playlist holds, in a sentence.
    static func summary(_ playlist: SystemPlaylist, _ t: Translator) -> String {
        switch playlist {
        case .recentlyPlayed: t("What you played last, the newest first.")
        case .mostPlayed: t("What you come back to most.")
        case .recommended: t("New to you: from the genres and authors you picked, liked and listened to.")
        }
    }

    /// A kind of item, as a list of them is named: "Podcast episodes".
    static func name(_ kind: MediaKind, _ t: Translator) -> String {
        switch kind {
        case .track: t("Tracks")
        case .podcastEpisode: t("Podcast episodes")
        case .audiobookChapter: t("Audiobook chapters")
        case .programmeEpisode: t("Programme episodes")
        }
    }

    /// One item, as a search hit's badge says: "podcast episode".
    static func badge(_ kind: MediaKind, _ t: Translator) -> String {
        switch kind {
        case .track: t("track", context: "kind")
        case .podcastEpisode: t("podcast episode", context: "kind")
        case .audiobookChapter: t("audiobook chapter", context: "kind")
        case .programmeEpisode: t("programme episode", context: "kind")
        }
    }

    static func day(_ date: Date) -> String { date.formatted(.iso8601.year().month().day()) }
}

/// A track, episode or chapter in a list (`listen-items`, a playlist, what can be added to one).
struct MediaRow: Sendable {
    var id: Int64
    var title: String
    var ref: String
    var parentRef: String
    var parentTitle: String
    var parentUrl: String
    var showParent: Bool
    var duration: String
    var url: String
    var liked: Bool
    var hidden: Bool
    var explicit: Bool
    var number: String
    var author: String?
    var authorUrl: String?
    var resume: String?
    var published: String?
    var selected = false
    var first = false
    var last = false
    /// An episode, chapter or lecture: it may be kept on the device for offline listening.
    var keepable: Bool

    /// `showParent` for lists that mix items of several albums or podcasts.
    init(_ view: CatalogueService.MediaView, showParent: Bool) {
        let item = view.item
        id = item.id
        title = item.title
        ref = "\(item.kind.rawValue):\(item.id)"
        parentRef = "\(item.kind.parent.rawValue):\(item.parentID)"
        parentTitle = item.parentTitle
        parentUrl = SiteRoutes.parent(item.kind.parent).path(item.parentID)
        self.showParent = showParent
        duration = ListenText.duration(item.duration)
        url = SiteRoutes.parentItem(item.kind.parent).path(item.parentID, item.id)
        liked = view.liked
        hidden = view.hidden
        explicit = item.isExplicit
        number = item.number > 0 ? String(item.number) : ""
        author = item.author?.name
        authorUrl = item.author.map { SiteRoutes.author.path($0.id) }
        resume = view.resumePosition.map(ListenText.duration)
        published = item.publishedAt.map(ListenText.day)
        keepable = item.kind != .track
    }
}

/// An album, podcast, audiobook or programme as a tile.
struct ParentTile: Sendable {
    var id: Int64
    var title: String
    var kind: String
    var ref: String
    var url: String
    var items: Int
    var duration: String
    var author: String?
    var authorUrl: String?
    var medium: String?

    init(_ parent: Parent) {
        id = parent.id
        title = parent.title
        kind = parent.kind.rawValue
        ref = "\(parent.kind.rawValue):\(parent.id)"
        url = SiteRoutes.parent(parent.kind).path(parent.id)
        items = parent.itemCount
        duration = ListenText.duration(parent.duration)
        author = parent.author?.name
        authorUrl = parent.author.map { SiteRoutes.author.path($0.id) }
        medium = parent.hasCover ? CoverURL.path(parentID: parent.id, size: .medium, version: parent.updatedAt) : nil
    }
}

struct ListenSearchPage: PageModel {
    static let template = "listen-search"
    static let section: SiteSection? = .listen

    struct Hit: Sendable {
        var title: String
        var subtitle: String
        var url: String
        var ref: String
        var kind: String
        /// A station plays live in the player (not through the queue).
        var station: StationsPage.Station?
    }

    var q: String
    var hits: [Hit]
    var empty: Bool
}

struct ListenBrowsePage: PageModel {
    static let template = "listen-browse"
    static let section: SiteSection? = .listen

    var title: String
    var parents: [ParentTile]
    var empty: Bool
}

/// An album, podcast, audiobook or programme with its items, rating and comments.
struct ListenParentPage: PageModel {
    static let template = "listen-parent"
    static let section: SiteSection? = .listen

    struct Rating: Sendable {
        /// A star of the five: `mine` is the listener's own rating; every star up to it is `lit`.
        struct Star: Sendable {
            var value: Int
            var mine: Bool
            var lit: Bool
        }

        var average: String
        var count: Int
        var none: Bool
        var stars: [Star]
    }

    struct CommentView: Sendable {
        var id: Int64
        var author: String
        var body: String
        var date: String
        var canDelete: Bool
        var deleteURL: String
    }

    var id: Int64
    var title: String
    var kind: String
    var ref: String
    var items: Int
    var duration: String
    var author: String?
    var authorUrl: String?
    var description: String?
    var year: String?
    var genre: String?
    var genreUrl: String?
    var large: String?
    var liked: Bool
    var hidden: Bool
    var mediaItems: [MediaRow]
    var noItems: Bool
    var rating: Rating
    var ratingURL: String
    var selectedRef: String
    /// The item a deep link names (`/podcasts/3/12`), offered to play with its own text: an
    /// episode's page (seed 001 §3.6); nil on the parent's own link.
    var selected: Selected?
    var rssUrl: String?
    var share: SharePreview
    var reportUrl: String

    struct Selected: Sendable {
        var title: String
        /// "" without one; `has…` say which there are (Mustache shows "" as it shows any text).
        var description: String
        var published: String
        var hasDescription: Bool
        var hasPublished: Bool
        var ref: String
        /// What playing it plays: the parent (its `ref`).
        var context: String
        var reportUrl: String

        init(_ view: CatalogueService.MediaView, context: String) {
            title = view.item.title
            description = view.item.description
            published = view.item.publishedAt.map(ListenText.day) ?? ""
            hasDescription = !description.isEmpty
            hasPublished = !published.isEmpty
            ref = view.api.ref
            self.context = context
            reportUrl = ReportPages.url(
                target: ref, back: SiteRoutes.parentItem(view.item.kind.parent).path(view.item.parentID, view.item.id))
        }
    }
    var comments: [CommentView]
}

struct ListenAuthorPage: PageModel {
    static let template = "listen-author"
    static let section: SiteSection? = .listen

    var name: String
    /// What the like button names (`listen-mark`).
    var title: String
    var ref: String
    var liked: Bool
    var hidden: Bool
    var parents: [ParentTile]
    var mediaItems: [MediaRow]
    var share: SharePreview
}

struct ListenLikedPage: PageModel {
    static let template = "listen-liked"
    static let section: SiteSection? = .listen

    var mediaItems: [MediaRow]
    var empty: Bool
    /// “I'm listening”: the parents played from lately.
    var listening: [ParentTile]
    var hasListening: Bool
}

struct ListenSettingsPage: PageModel {
    static let template = "listen-settings"
    static let section: SiteSection? = .listen

    struct Quality: Sendable {
        var value: String
        var name: String
        var selected: Bool
    }

    var qualities: [Quality]
    var endlessQueue: Bool
    var skipExplicit: Bool
    var radioRegion: String
}

/// The media library and the home feed's blocks, for admins.
struct LibraryPage: PageModel {
    static let template = "listen-library"
    static let section: SiteSection? = .listen

    struct Block: Sendable {
        var index: Int
        var type: String
        var title: String
        var source: String
        var limit: Int
        var highlight: String?
        var link: String?
        var description: String?
        /// The uploaded image's address.
        var image: String?
        var titleLink: String?
        var first: Bool
        var last: Bool
    }

    var count: Int
    var configured: Bool
    var blocks: [Block]
    var types: [TypeChoice]

    /// A block type: its API value and its name in the page's language.
    struct TypeChoice: Sendable {
        var value: String
        var name: String
    }

    /// How each block type looks, in words (seed 001's table 3).
    static func typeName(_ type: FeedBlockConfiguration.BlockType, _ t: Translator) -> String {
        switch type {
        case .listSquare: t("Row of square tiles", context: "feed block type")
        case .listRectangular: t("Row of wide tiles", context: "feed block type")
        case .listTitleLink: t("List of titles", context: "feed block type")
        case .gridFourSquares: t("Grid of four tiles", context: "feed block type")
        case .track: t("Tracks to play", context: "feed block type")
        case .rating: t("Invitation to rate", context: "feed block type")
        case .ad: t("Advertisement", context: "feed block type")
        case .banner: t("Banner", context: "feed block type")
        case .genres: t("Genres", context: "feed block type")
        case .background: t("Background image", context: "feed block type")
        case .stations: t("Radio stations", context: "feed block type")
        }
    }
}

import Foundation

/// The home feed. Mustache looks a name up in the enclosing contexts when the inner one has no
/// value for it (and takes "" for true): what a block and a tile both could say has a name of
/// its own here, and every optional one a `has…` flag beside it.
struct ListenHomePage: PageModel {
    static let template = "listen"
    static let section: SiteSection? = .listen

    struct Block: Sendable {
        var type: String
        var title: String
        var hasTitle: Bool
        /// The line over the title (seed 001's highlight).
        var highlight: String
        var hasHighlight: Bool
        var blockDescription: String
        var hasDescription: Bool
        /// A background block's background, an ad's or banner's image.
        var blockImage: String
        var hasImage: Bool
        /// Where an ad's or banner's image leads, and what it says there (the title, or a word
        /// for an ad without one).
        var imageLink: String
        var hasImageLink: Bool
        var imageAlt: String
        /// Where the title leads, and the author's image beside it.
        var titleUrl: String
        var hasTitleLink: Bool
        var titleImage: String
        var hasTitleImage: Bool
        var hasMore: Bool
        var moreUrl: String
        var items: [Tile]
    }

    struct Tile: Sendable {
        var title: String
        var url: String
        var ref: String
        var subtitle: String
        var playable: Bool
        var cover: String
        var hasCover: Bool
        var duration: String?
        /// A parent's or a playlist's description.
        var summary: String
        var hasSummary: Bool
        /// What playing it plays (its album, its playlist), when more than itself.
        var context: String
        var hasContext: Bool
        var number: Int
        var hasNumber: Bool
        /// A station plays live in the player (not through the queue).
        var station: StationsPage.Station?
    }

    var genre: String?
    var blocks: [Block]
}

/// What a messenger or a social network shows of a shared link: the Open Graph and Twitter card
/// tags in the layout's head (seed 001 §3.8, "every entity can be shared"). Messengers fetch the
/// link without the sharer's cookies, so the page a visitor without an account gets carries
/// them; every address is absolute, and an image is one that opens without a login.
struct SharePreview: Sendable {
    /// The page's own address.
    var url: String
    var title: String
    /// A line or two; "" leaves the tags out.
    var description: String
    /// `og:type`: `music.album`, `music.song`, `music.playlist`, `profile` or `website`.
    var type: String
    /// A picture's address: the thing's own, else Campus's icon as a PNG (``SiteRoutes/shareIcon``),
    /// since previews show only raster pictures and a link without one looks broken.
    var image: String
    /// An item's audio (`og:audio`; playing it needs an account), "" for anything else.
    var audio: String
    var siteName: String

    /// `twitter:card`: a large picture where the thing has one, the small card with the icon
    /// otherwise.
    var card: String
    /// Which of the optional tags there are (Mustache shows "" as it shows any text).
    var hasDescription: Bool
    var hasAudio: Bool

    init(
        baseURL: String, path: String, title: String, description: String = "", type: String,
        imagePath: String? = nil, audioPath: String? = nil, siteName: String
    ) {
        url = baseURL + path
        self.title = title
        self.description = String(description.prefix(300))
        self.type = type
        image = baseURL + (imagePath ?? SiteRoutes.shareIcon.path)
        audio = audioPath.map { baseURL + $0 } ?? ""
        self.siteName = siteName
        card = imagePath == nil ? "summary" : "summary_large_image"
        hasDescription = !self.description.isEmpty
        hasAudio = audioPath != nil
    }
}

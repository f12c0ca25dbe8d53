/// How albums (and other parents) are listed to a listener: the orders of the Subsonic API's
/// album lists, which the web app's browsing uses too.
public enum AlbumOrder: Sendable, Equatable {
    case random, newest, alphabeticalByName, alphabeticalByArtist
    /// The listener's most played and last played.
    case frequent, recent
    /// The listener's likes.
    case starred
    /// Years from `from` to `to`, backwards when `from` is the later.
    case byYear(from: Int, to: Int)
    case byGenre(String)
}

import Foundation

/// How much one listener keeps. Every collection a listener grows by their own requests has a
/// limit, so that no account fills the database or makes its own lists slow (issue 35: one
/// account made 28,000 playlists in 42 seconds, and listing them took 1.9 s). What a collection
/// holds of the catalogue (a playlist's items, the queue) has its own limit beside its type
/// (``Playlist/capacity``, ``PlayerState/capacity``); open reports have
/// ``ContentReport/openLimit``; picks have theirs where they are chosen.
public enum ListenerLimits {
    /// Own playlists (the system playlists are not counted).
    public static let playlists = 1000
    /// Likes and hides together, of items, parents and authors.
    public static let marks = 20_000
    /// Comments written, on every album, podcast, audiobook and programme together.
    public static let comments = 5000
    /// Entries of the listening history kept (items played, stations listened to, each): older
    /// ones are forgotten as new ones come, as a player's history is.
    public static let history = 10_000
}

import Foundation
import Logging
import Storage

extension SharedJob {
    /// Reads every podcast imported from the web again, so that a liked podcast's new episodes
    /// reach the catalogue and its fans (``ListenNotices``) without an admin importing it again.
    /// One feed that fails (gone, not a feed any more, slow) is logged and the rest are read; it
    /// is tried again at the next run.
    static func podcastRefresh(_ library: LibraryService, interval: Duration, logger: Logger) -> SharedJob {
        SharedJob(name: "podcast-refresh", interval: interval, firstDelay: min(.seconds(300), interval)) {
            let feeds = try await library.database.read { db in try await ListenStore(db).podcastFeeds() }
            for feed in feeds {
                try Task.checkCancellation()
                do {
                    _ = try await library.importPodcast(feed, refreshing: true, by: nil)
                } catch is CancellationError {
                    throw CancellationError()
                } catch {
                    logger.warning(
                        "Cannot refresh a podcast",
                        metadata: ["feed": "\(feed)", "error": "\(String(describing: error))"])
                }
            }
        }
    }
}

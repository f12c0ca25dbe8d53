import Accounts
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// Listeners' requests (issue 42): a signed-in listener asks for a track of the station's request
/// list (the tracks of its rotation and time-block playlists), and AutoDJ plays it next, after a
/// jingle that is due. A listener makes at most ``requestsPerHour`` an hour, a station takes at
/// most ``stationRequestsPerHour``, and at most ``queueLimit`` wait at once.
extension StationService {
    static let requestsPerHour = 3
    static let stationRequestsPerHour = 30
    static let queueLimit = 10

    /// The request list: the tracks of the station's enabled rotation and block playlists (with a
    /// file), by title, those whose title or artist holds `search` (any letter case); at most 200.
    func requestList(mount: String, search: String?) async throws -> [MediaItem] {
        let station = try await station(mount: mount)
        let words = (search ?? "").lowercased().split(separator: " ").map(String.init)
        return try await database.read { db in
            let store = RadioStore(db)
            var ids: [Int64] = []
            for playlist in try await store.playlists(stationID: station.id) where playlist.enabled {
                if case .every = playlist.rule { continue }
                ids += try await store.playableMedia(playlist.sources)
            }
            var seen: Set<Int64> = []
            let items = try await ListenStore(db).media(ids: ids.filter { seen.insert($0).inserted })
            return items.filter { item in
                let text = (StationAutoDJ.title(of: item)).lowercased()
                return words.allSatisfy { text.contains($0) }
            }
            .sorted {
                StationAutoDJ.title(of: $0).localizedStandardCompare(StationAutoDJ.title(of: $1)) == .orderedAscending
            }
            .prefix(200).map { $0 }
        }
    }

    /// The requests waiting, the oldest first, with their titles.
    func pendingRequests(mount: String) async throws -> [(request: RadioStore.PendingRequest, title: String)] {
        let station = try await station(mount: mount)
        return try await database.read { db in
            let listen = ListenStore(db)
            var found: [(RadioStore.PendingRequest, String)] = []
            for request in try await RadioStore(db).pendingRequests(stationID: station.id) {
                if let item = try await listen.media(id: request.mediaID) {
                    found.append((request, StationAutoDJ.title(of: item)))
                }
            }
            return found
        }
    }

    /// A listener requests a track: 422 when it is not on the request list, 409 when it waits
    /// already or the queue is full, 429 over the hourly limits. Its place in the queue (1: next).
    func request(mount: String, mediaID: Int64, by user: Account) async throws -> Int {
        let station = try await station(mount: mount)
        guard try await requestList(mount: mount, search: nil).contains(where: { $0.id == mediaID }) else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "mediaId", detail: "{name} does not take requests for that track.", ["name": station.name]))
        }
        let now = now()
        return try await database.write { db in
            let store = RadioStore(db)
            let pending = try await store.pendingRequests(stationID: station.id)
            if pending.contains(where: { $0.mediaID == mediaID }) {
                throw Refusal.conflict("That track is requested already: it comes soon.")
            }
            if pending.count >= Self.queueLimit {
                throw Refusal.conflict(
                    "{count} requests wait already: try again later.", ["count": String(pending.count)])
            }
            let counts = try await store.requestCounts(
                stationID: station.id, userID: user.id, since: now.addingTimeInterval(-3600))
            if counts.mine >= Self.requestsPerHour || counts.all >= Self.stationRequestsPerHour {
                throw Refusal.tooManyAttempts(
                    retryAfterSeconds: 600,
                    oneMinute: Phrase("Enough requests for this hour. Try again in {minutes} minute."),
                    minutes: Phrase("Enough requests for this hour. Try again in {minutes} minutes."))
            }
            _ = try await store.addRequest(stationID: station.id, mediaID: mediaID, userID: user.id, now: now)
            return pending.count + 1
        }
    }
}

import Foundation
import Listen
import Storage

/// The play queue: the same server-side player the web app uses, so a queue saved on the phone
/// shows in the browser, and the browser's queue is what the phone gets.
struct SubsonicPlayQueue: Sendable {
    let services: Services
    var listen: ListenService { services.listen }

    var handlers: KeyValuePairs<String, SubsonicRoutes.Handler> {
        [
            "getPlayQueue": { call in try await playQueue(call) },
            "savePlayQueue": { call in try await savePlayQueue(call) },
        ]
    }

    func playQueue(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let player = try await listen.player(for: user)
        let state = player.state
        var node = SubsonicNode()
        if let current = state.currentItem {
            node.set("current", SubsonicID.song(current.mediaID).description)
            node.set("position", milliseconds: state.position)
        }
        node.set("username", user.email)
        node.set("changed", try await listen.playerChanged(for: user) ?? user.createdAt)
        node.set("changedBy", "campus")
        node.add(
            "entry",
            list: state.queue.compactMap { entry in
                player.items[entry.mediaID].map { SubsonicEntry.song($0) }
            })
        return .answer("playQueue", node)
    }

    func savePlayQueue(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let ids = try call.ids("id").map { id -> Int64 in
            guard case .song(let number) = id else { throw SubsonicError(.notFound, "There is no such song.") }
            return number
        }
        var current: Int64?
        if let text = call.value("current"), !text.isEmpty {
            guard case .song(let number) = SubsonicID(text) else {
                throw SubsonicError(.notFound, "There is no such song.")
            }
            current = number
        }
        let position = try call.position("position") ?? 0
        _ = try await listen.restoreQueue(ids, current: current, position: position, for: user)
        return .empty
    }
}

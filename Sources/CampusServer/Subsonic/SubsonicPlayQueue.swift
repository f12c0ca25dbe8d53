import Foundation
import Listen
import Storage

/// The play queue: the same server-side player the web app uses, so a queue saved on the phone
/// shows in the browser, and the browser's queue is what the phone gets.
struct SubsonicPlayQueue: Sendable {
    let player: PlayerService

    var handlers: KeyValuePairs<String, SubsonicRoutes.Handler> {
        [
            "getPlayQueue": { call in try await playQueue(call) },
            "savePlayQueue": { call in try await savePlayQueue(call) },
        ]
    }

    func playQueue(_ call: SubsonicCall) async throws -> SubsonicReply {
        let user = try call.user
        let view = try await player.player(for: user)
        let state = view.state
        var node = SubsonicNode()
        if let current = state.currentItem {
            node.set("current", SubsonicID.song(current.mediaID).description)
            node.set("position", milliseconds: state.position)
        }
        node.set("username", user.email)
        node.set("changed", try await player.playerChanged(for: user) ?? user.createdAt)
        node.set("changedBy", "campus")
        node.add(
            "entry",
            list: state.queue.compactMap { entry in
                view.items[entry.mediaID].map { SubsonicEntry.song($0) }
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
        _ = try await player.restoreQueue(ids, current: current, position: position, for: user)
        return .empty
    }
}

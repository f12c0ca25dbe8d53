import Accounts
import Compete
import Foundation
import InputRules
import Storage

/// A chat per competition (seed 002's "real-time chat between organizers and participants"):
/// its organizers (owner, co-organizers, admins) and participants read it and, while the
/// competition is active, write in it; organizers delete any message, a writer their own. Each
/// writer sends at most ``chatRate`` messages a minute in a chat, each at most
/// ``chatLength`` characters.
extension CompeteService {
    /// The most characters of a message.
    static let chatLength = 2000
    /// The most messages a writer sends in one chat within a minute.
    static let chatRate = 10
    /// The most messages one history page holds.
    static let chatPage = 100

    /// The chat's newest messages (before message `before`), newest first, and its version.
    func chat(_ id: Int64, before: Int64?, limit: Int, for user: Account) async throws -> (
        visible: Visible, messages: [ChatMessage], version: Int64
    ) {
        let visible = try await chatting(id, user)
        let (messages, version) = try await database.read { db in
            let store = ChatStore(db)
            return (
                try await store.messages(competitionID: id, before: before, limit: limit),
                try await store.version(competitionID: id)
            )
        }
        return (visible, messages, version)
    }

    /// What the chat gained after `version`, for a live stream that comes back.
    func chatChanges(_ id: Int64, after version: Int64, for user: Account) async throws -> (
        version: Int64, missed: [ChatMessage]
    ) {
        _ = try await chatting(id, user)
        return try await database.read { db in
            let store = ChatStore(db)
            let now = try await store.version(competitionID: id)
            let missed =
                version < now
                ? try await store.changes(competitionID: id, after: version, limit: LiveChat.catchUpLimit) : []
            return (now, missed)
        }
    }

    /// Writes a message to the chat, which every live page of it shows at once.
    func postChat(_ id: Int64, text: String, by user: Account) async throws -> ChatMessage {
        let visible = try await chatting(id, user)
        guard visible.competition.isActive else {
            throw Refusal.conflict("The competition is deactivated: its chat can be read, not written in.")
        }
        let text = try Self.chatText(text)
        let now = now()
        let message = try await database.write { db -> ChatMessage in
            let store = ChatStore(db)
            let recent = try await store.postedTimes(
                competitionID: id, userID: user.id, since: now.addingTimeInterval(-60))
            if recent.count >= Self.chatRate, let oldest = recent.first {
                let seconds = max(1, Int((oldest.addingTimeInterval(60).timeIntervalSince(now)).rounded(.up)))
                throw Refusal(
                    .tooMany(retryAfterSeconds: seconds),
                    detail: "You wrote {count} messages within a minute; wait {seconds} s.",
                    ["count": String(Self.chatRate), "seconds": String(seconds)])
            }
            return try await store.post(competitionID: id, userID: user.id, text: text, now: now)
        }
        liveChat.changed(message)
        return message
    }

    /// Deletes a message: its writer, or one of the competition's organizers (or an admin), in
    /// an active or a deactivated competition alike. Deleting it again changes nothing.
    func deleteChat(_ id: Int64, message messageID: Int64, by user: Account) async throws {
        let visible = try await chatting(id, user)
        let now = now()
        let deleted = try await database.write { db -> ChatMessage in
            let store = ChatStore(db)
            guard let message = try await store.message(id: messageID, competitionID: id) else {
                throw Refusal.notFound("There is no message {id} in this chat.", ["id": String(messageID)])
            }
            guard visible.canManage || message.userID == user.id else {
                throw Refusal.notAllowed("Only the competition's organizers and its writer may delete a message.")
            }
            return try await store.delete(message, by: user.id, now: now)
        }
        liveChat.changed(deleted)
        logger.info(
            "chat message deleted", metadata: ["competition": "\(id)", "message": "\(messageID)", "by": "\(user.id)"])
    }

    /// The competition, for one of its organizers, an admin or a participant.
    private func chatting(_ id: Int64, _ user: Account) async throws -> Visible {
        let visible = try await visible(id, to: user)
        guard visible.canManage || visible.isJoined else {
            throw Refusal.notAllowed("Only the competition's organizers and participants take part in its chat.")
        }
        return visible
    }

    /// The message as it is kept: in Unicode's composed form (NFC), trimmed, not empty, within
    /// ``chatLength`` code points, several lines (``TextRules``: no control characters but line
    /// breaks and tabs, no bidirectional overrides; `dir="auto"` shows each message's direction).
    static func chatText(_ text: String) throws -> String {
        let trimmed = TextRules.trimmed(text.precomposedStringWithCanonicalMapping)
            .replacingOccurrences(of: "\r\n", with: "\n")
        guard !trimmed.isEmpty else {
            throw Refusal.invalid(FieldProblem(field: "text", detail: "The message is empty."))
        }
        if var problem = TextRules.problem(in: trimmed, limit: chatLength, multiline: true) {
            problem.values["field"] = "text"
            throw Refusal.invalid(FieldProblem(field: "text", problem))
        }
        return trimmed
    }
}

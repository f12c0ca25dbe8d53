import CampusAPI
import CampusHTTP
import Foundation
import OpenAPIRuntime
import Storage

/// `/api/v1/competitions/{id}/messages`: the competition's chat (``CompeteService/chat(_:before:limit:for:)``
/// and the rest), its history, writing, deleting and the live stream.
extension APIHandler {
    func listChatMessages(_ input: Operations.listChatMessages.Input) async throws
        -> Operations.listChatMessages.Output
    {
        let user = try await requireUser().user
        let (_, messages, version) = try await compete.chat(
            input.path.competitionId, before: input.query.before,
            limit: min(input.query.limit ?? 50, CompeteService.chatPage), for: user)
        return .ok(.init(body: .json(.init(version: version, items: messages.map(\.api)))))
    }

    func postChatMessage(_ input: Operations.postChatMessage.Input) async throws -> Operations.postChatMessage.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the message as JSON.") }
        let message = try await compete.postChat(input.path.competitionId, text: body.text, by: user)
        return .created(.init(body: .json(message.api)))
    }

    func deleteChatMessage(_ input: Operations.deleteChatMessage.Input) async throws
        -> Operations.deleteChatMessage.Output
    {
        let user = try await requireUser().user
        try await compete.deleteChat(input.path.competitionId, message: input.path.messageId, by: user)
        return .noContent(.init())
    }

    func followChat(_ input: Operations.followChat.Input) async throws -> Operations.followChat.Output {
        let user = try await requireUser().user
        let id = input.path.competitionId
        let (version, missed) = try await compete.chatChanges(id, after: input.query.after ?? .max, for: user)
        let stream = services.liveChat.subscribe(competitionID: id, version: version, missed: missed)
            .cancelOnGracefulShutdown()
        return .ok(
            .init(
                headers: .init(Cache_hyphen_Control: "no-store"),
                body: .text_event_hyphen_stream(HTTPBody(stream, length: .unknown, iterationBehavior: .single))))
    }
}

extension ChatMessage {
    var api: Components.Schemas.ChatMessage {
        .init(
            id: id, author: .init(id: userID, name: authorName), text: text, at: createdAt, deleted: deletedAt != nil,
            version: version)
    }
}

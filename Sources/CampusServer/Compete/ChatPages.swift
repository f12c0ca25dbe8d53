import Accounts
import CampusHTTP
import Foundation
import Storage

/// A competition's chat in the browser (`/compete/{id}/chat`): the newest messages, older ones
/// page by page, a form to write (without JavaScript too), and campus.js following the chat's
/// live stream. Every action is checked by ``CompeteService``, as the API is.
struct ChatPages: Sendable {
    let compete: CompeteService
    let configuration: ServerConfiguration

    /// Messages on one page.
    static let shown = 50

    struct MessageForm: PageForm {
        var _csrf: String?
        var text: String?
    }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.competitionChat, chat)
        pages.form(SiteRoutes.competitionChat, MessageForm.self) { request, account, form in
            let id = try request.id()
            do {
                _ = try await compete.postChat(id, text: form.text ?? "", by: account.user)
                return .redirect(SiteRoutes.competitionChat.path(id))
            } catch {
                guard let problem = Problem(describing: error),
                    [.conflict, .unprocessableContent, .tooManyRequests].contains(problem.status)
                else { throw error }
                return .redirect(SiteRoutes.competitionChat.path(id), flash: request.t.detail(problem), kind: .error)
            }
        }
        pages.form(SiteRoutes.deleteChatMessage, CSRFForm.self) { request, account, _ in
            let id = try request.id()
            try await compete.deleteChat(id, message: try request.id("messageId"), by: account.user)
            return .redirect(SiteRoutes.competitionChat.path(id), flash: request.t("The message was deleted."))
        }
    }

    @Sendable func chat(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let id = try request.id()
        let before = request.text("before").flatMap { Int64($0) }
        let (visible, messages, version) = try await compete.chat(
            id, before: before, limit: Self.shown + 1, for: account.user)
        let me = account.user.id
        let shown = messages.prefix(Self.shown)
        return .page(
            CompetitionChatPage(
                id: id, me: me, name: visible.competition.name, competitionURL: SiteRoutes.competition.path(id),
                liveURL: before == nil ? APIRoutes.chatLive.path(id) : nil, version: version,
                canWrite: visible.competition.isActive && before == nil, canDeleteAll: visible.canManage,
                deletePattern: SiteRoutes.deleteChatMessage.pattern, maxLength: CompeteService.chatLength,
                messages: shown.reversed().map { message in
                    CompetitionChatPage.Message(
                        id: message.id, author: message.authorName, mine: message.userID == me, text: message.text,
                        at: DateTimeField.text(message.createdAt, in: configuration.timeZone) ?? "",
                        deleted: message.deletedAt != nil,
                        deleteURL: message.deletedAt == nil && (visible.canManage || message.userID == me)
                            ? SiteRoutes.deleteChatMessage.path(id, message.id) : nil)
                },
                empty: messages.isEmpty,
                olderURL: messages.count > Self.shown
                    ? shown.last.map { SiteRoutes.competitionChat.path(id, query: [("before", String($0.id))]) } : nil,
                newestURL: before == nil ? nil : SiteRoutes.competitionChat.path(id)))
    }
}

/// A competition's chat: its messages, oldest first, and the form to write.
struct CompetitionChatPage: PageModel {
    static let template = "compete-chat"
    static let section: SiteSection? = .compete

    struct Message: Sendable {
        var id: Int64
        var author: String
        var mine: Bool
        var text: String
        var at: String
        var deleted: Bool
        /// A form post that deletes it, for its writer and the competition's organizers.
        var deleteURL: String?
    }

    var id: Int64
    var me: Int64
    var name: String
    var competitionURL: String
    /// The chat's live stream; nil on an older page.
    var liveURL: String?
    var version: Int64
    var canWrite: Bool
    /// The viewer organizes the competition (or is an admin): they delete any message.
    var canDeleteAll: Bool
    /// The delete form's path with `{id}` and `{messageId}`, for the live messages' buttons.
    var deletePattern: String
    var maxLength: Int
    var messages: [Message]
    var empty: Bool
    var olderURL: String?
    var newestURL: String?
}

import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// What listeners say about what they hear: likes and hiding (marks), star ratings and
/// comments. Each form goes back to the page it was sent from.
struct ReactionPages: Sendable {
    let catalogue: CatalogueService

    func register(on pages: PageRouter) {
        pages.form(SiteRoutes.marks, MarkForm.self, mark)
        pages.form(SiteRoutes.rating, RatingForm.self) { request, account, form in
            _ = try await catalogue.rate(try request.id(), stars: form.stars, for: account.user)
            return .redirect(SignInPages.safeNext(form.back), flash: request.t("Thanks for rating."))
        }
        pages.form(SiteRoutes.comments, CommentForm.self, addComment)
        pages.form(SiteRoutes.deleteComment, CommentForm.self) { request, account, form in
            _ = try await catalogue.deleteComment(try request.id(), by: account.user)
            return .redirect(SignInPages.safeNext(form.back), flash: request.t("The comment is deleted."))
        }
    }

    struct MarkForm: PageForm {
        var _csrf: String?
        var target: String
        var mark: String?
        var back: String?
    }

    @Sendable func mark(_ request: PageRequest, _ account: Authenticated, _ form: MarkForm) async throws -> PageAnswer {
        let target = try CatalogueService.reference(form.target, field: "target")
        let mark = form.mark.flatMap(ListenStore.Mark.init(rawValue:))
        do {
            try await catalogue.mark(target, mark, for: account.user)
        } catch let refusal as Refusal where refusal.reason == .conflict {
            return .redirect(SignInPages.safeNext(form.back), flash: request.t.detail(refusal), kind: .error)
        }
        let message =
            switch mark {
            case .like: request.t("Liked.")
            case .hide: request.t("Hidden: the player skips it.")
            case nil: request.t("Done.")
            }
        return .redirect(SignInPages.safeNext(form.back), flash: message)
    }

    struct RatingForm: PageForm {
        var _csrf: String?
        var stars: Int
        var back: String?
    }

    struct CommentForm: PageForm {
        var _csrf: String?
        var parentId: Int64?
        var body: String?
        var back: String?
    }

    @Sendable func addComment(_ request: PageRequest, _ account: Authenticated, _ form: CommentForm) async throws
        -> PageAnswer
    {
        let back = SignInPages.safeNext(form.back)
        do {
            _ = try await catalogue.comment(on: form.parentId ?? 0, form.body ?? "", by: account.user)
        } catch let refusal as Refusal where [.invalid, .conflict].contains(refusal.reason) {
            return .redirect(back, flash: request.t.detail(refusal), kind: .error)
        }
        return .redirect(back, flash: request.t("Your comment is posted."))
    }
}

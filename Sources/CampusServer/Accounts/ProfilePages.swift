import Accounts
import CampusHTTP
import Foundation
import InputRules
import Localization
import Storage

/// The signed-in user's own account: profile, password, avatar, deleting it.
struct ProfilePages: Sendable {
    let accounts: AccountService

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.profile) { request, account in
            .page(try await page(account.user, request.t))
        }
        pages.form(SiteRoutes.profile, ProfileForm.self, updateProfile)
        pages.form(SiteRoutes.profilePassword, PasswordForm.self, changePassword)
        pages.upload(SiteRoutes.profileAvatar, AvatarForm.self, bodyLimit: BodyLimits.avatarForm, uploadAvatar)
        pages.form(SiteRoutes.profileAvatarDelete, CSRFForm.self) { request, account, _ in
            try await accounts.deleteAvatar(of: account.user)
            return .redirect(SiteRoutes.profile.path, flash: request.t("Your avatar is removed."))
        }
        pages.form(SiteRoutes.profileDelete, DeleteForm.self, deleteAccount)
    }

    /// The profile page of `user`, with the password form only for an account that has one.
    private func page(_ user: Account, _ t: Translator) async throws -> ProfilePage {
        var page = ProfilePage(user, t)
        page.hasPassword = try await accounts.hasPassword(user)
        return page
    }

    struct ProfileForm: PageForm {
        var _csrf: String?
        var firstName: String?
        var lastName: String?
        var group: String?
        var subgroup: String?
    }

    @Sendable func updateProfile(_ request: PageRequest, _ account: Authenticated, _ form: ProfileForm) async throws
        -> PageAnswer
    {
        var subgroup: Int?
        if let text = form.subgroup, !text.isEmpty {
            guard let value = Int(text) else {
                var page = try await page(account.user, request.t)
                page.errors = FieldErrors("subgroup", request.t("Choose a subgroup from the list."))
                return .page(page, status: .unprocessableContent)
            }
            subgroup = value
        }
        do {
            _ = try await accounts.updateProfile(
                of: account.user,
                .init(firstName: form.firstName, lastName: form.lastName, group: form.group, subgroup: subgroup))
            return .redirect(SiteRoutes.profile.path, flash: request.t("Your profile is saved."))
        } catch let failure as ValidationFailure {
            var shown = account.user
            shown.firstName = form.firstName ?? shown.firstName
            shown.lastName = form.lastName ?? shown.lastName
            shown.group = form.group ?? shown.group
            var page = try await page(shown, request.t)
            page.errors = FieldErrors(failure, request.t)
            return .page(page, status: .unprocessableContent)
        }
    }

    struct PasswordForm: PageForm {
        var _csrf: String?
        var currentPassword: String?
        var newPassword: String?
        var confirmation: String?
    }

    @Sendable func changePassword(_ request: PageRequest, _ account: Authenticated, _ form: PasswordForm)
        async throws -> PageAnswer
    {
        var page = try await page(account.user, request.t)
        guard form.newPassword == form.confirmation else {
            page.passwordErrors = FieldErrors("confirmation", request.t("The two new passwords are not the same."))
            return .page(page, status: .unprocessableContent)
        }
        do {
            try await accounts.changePassword(
                of: account, current: form.currentPassword ?? "", new: form.newPassword ?? "")
            return .redirect(
                SiteRoutes.profile.path,
                flash: request.t("Your password is changed. Your other sessions have been logged out."))
        } catch let failure as ValidationFailure {
            page.passwordErrors = FieldErrors(failure, request.t)
            return .page(page, status: .unprocessableContent)
        } catch let refusal as Refusal where [.notAllowed, .conflict].contains(refusal.reason) {
            page.passwordErrors = FieldErrors("currentPassword", request.t.detail(refusal))
            return .page(page, status: refusal.status)
        }
    }

    struct AvatarForm: PageForm {
        var _csrf: String?
        var avatar: Data?
    }

    @Sendable func uploadAvatar(_ request: PageRequest, _ account: Authenticated, _ form: AvatarForm) async throws
        -> PageAnswer
    {
        var page = try await page(account.user, request.t)
        guard let data = form.avatar, !data.isEmpty else {
            page.avatarError = request.t("Choose an image file first.")
            return .page(page, status: .unprocessableContent)
        }
        do {
            _ = try await accounts.setAvatar(
                of: account.user, contentType: "application/octet-stream", data: [UInt8](data))
            return .redirect(SiteRoutes.profile.path, flash: request.t("Your avatar is saved."))
        } catch let failure as ValidationFailure {
            page.avatarError = request.t.detail(failure)
            return .page(page, status: .unprocessableContent)
        } catch let refusal as Refusal where refusal.reason == .tooLarge {
            page.avatarError = request.t.detail(refusal)
            return .page(page, status: .contentTooLarge)
        }
    }

    struct DeleteForm: PageForm {
        var _csrf: String?
        var password: String?
    }

    @Sendable func deleteAccount(_ request: PageRequest, _ account: Authenticated, _ form: DeleteForm) async throws
        -> PageAnswer
    {
        do {
            try await accounts.deleteAccount(of: account.user, password: form.password ?? "")
        } catch let refusal as Refusal where [.notAllowed, .conflict].contains(refusal.reason) {
            var page = try await page(account.user, request.t)
            page.deleteError = request.t.detail(refusal)
            return .page(page, status: refusal.status)
        }
        return .redirect(
            SiteRoutes.home.path, flash: request.t("Your account and its data are deleted. Goodbye!"), session: .signOut
        )
    }
}

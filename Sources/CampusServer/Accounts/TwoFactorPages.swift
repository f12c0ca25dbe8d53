import Accounts
import CampusHTTP
import Formats
import Foundation
import InputRules
import Localization

/// The profile's "Two-factor sign-in" page (issue 40): start enrolment (a QR code and the
/// secret as text), confirm it with a first code (the ten recovery codes are shown this once),
/// or turn it off with the password and a code.
struct TwoFactorPages: Sendable {
    let accounts: AccountService

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.profileTwoFactor) { request, account in
            .page(try await page(request, account))
        }
        pages.form(SiteRoutes.profileTwoFactor, TwoFactorForm.self, act)
    }

    struct TwoFactorForm: PageForm {
        var _csrf: String?
        /// `start`, `confirm` or `off`.
        var action: String?
        var code: String?
        var password: String?
    }

    func page(_ request: PageRequest, _ account: Authenticated) async throws -> TwoFactorPage {
        let status = try await accounts.twoFactorStatus(of: account.user)
        var page = TwoFactorPage(enabled: status.enabled)
        if status.enabled {
            page.recoveryCodesLeft = request.t.plural(
                "{count} recovery code left", "{count} recovery codes left", status.recoveryCodesLeft)
        } else if let enrolment = try await accounts.pendingEnrolment(for: account.user) {
            page.enrolment = try .init(enrolment, t: request.t)
        }
        page.waitingRole = account.roleWaitingForTwoFactor.map { $0.name(request.t) }
        return page
    }

    @Sendable func act(_ request: PageRequest, _ account: Authenticated, _ form: TwoFactorForm) async throws
        -> PageAnswer
    {
        do {
            switch form.action {
            case "start":
                _ = try await accounts.startTwoFactor(for: account.user)
                return .redirect(SiteRoutes.profileTwoFactor.path)
            case "confirm":
                let codes = try await accounts.confirmTwoFactor(for: account.user, code: form.code ?? "")
                var page = TwoFactorPage(enabled: true)
                page.recoveryCodes = codes
                return .page(page)
            case "off":
                try await accounts.disableTwoFactor(
                    for: account.user, password: form.password ?? "", code: form.code ?? "",
                    address: RequestScope.current?.address ?? "unknown")
                return .redirect(
                    SiteRoutes.profileTwoFactor.path, flash: request.t("Two-factor sign-in is off."))
            default:
                throw Refusal.malformed("Choose what to do: start, confirm or off.")
            }
        } catch let refusal as Refusal where refusal.reason != .malformed {
            var page = try await page(request, account)
            page.error = request.t.detail(refusal)
            let problem = Problem(refusal)
            return .page(page, status: problem.status, headers: problem.pageHeaders)
        }
    }
}

struct TwoFactorPage: PageModel {
    static let template = "profile-two-factor"
    static let section: SiteSection? = .profile

    struct Enrolment: Sendable {
        /// The QR code of the authenticator app's address, as inline SVG.
        var qr: String
        var secret: String
        var url: String

        init(_ enrolment: AccountService.Enrolment, t: Translator) throws {
            qr = try QRCode(enrolment.url).svg(title: t("QR code for your authenticator app"))
            // Groups of four, as apps show and people type them.
            secret = stride(from: 0, to: enrolment.secret.count, by: 4).map { start in
                let from = enrolment.secret.index(enrolment.secret.startIndex, offsetBy: start)
                let to = enrolment.secret.index(from, offsetBy: 4, limitedBy: enrolment.secret.endIndex)
                return String(enrolment.secret[from..<(to ?? enrolment.secret.endIndex)])
            }.joined(separator: " ")
            url = enrolment.url
        }
    }

    var enabled: Bool
    var recoveryCodesLeft: String?
    var enrolment: Enrolment?
    /// The recovery codes, on the page that turned two-factor sign-in on, and only there.
    var recoveryCodes: [String] = [] {
        didSet { hasRecoveryCodes = !recoveryCodes.isEmpty }
    }
    /// Stored, as the templates read only stored properties.
    var hasRecoveryCodes = false
    var error: String?
    /// The role that waits for two-factor sign-in (`--require-2fa-for`).
    var waitingRole: String?

    init(enabled: Bool) { self.enabled = enabled }
}

import Accounts
import CampusHTTP
import Foundation
import InputRules
import Localization
import Storage

/// Admins manage accounts: search them and change their roles.
struct AdminPages: Sendable {
    let accounts: AccountService

    static let pageSize = 50

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.adminUsers, usersPage)
        pages.form(SiteRoutes.adminUserRole, RoleForm.self, setRole)
    }

    @Sendable func usersPage(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let query = request.text("q") ?? ""
        let pageNumber = max(1, min(5000, Int(request.query("page") ?? "1") ?? 1))
        let result = try await accounts.users(
            search: query, role: nil, limit: Self.pageSize, offset: (pageNumber - 1) * Self.pageSize, by: account.user)
        let pageCount = max(1, (result.total + Self.pageSize - 1) / Self.pageSize)
        func pageURL(_ number: Int) -> String {
            SiteRoutes.adminUsers.path(query: [("q", query.isEmpty ? nil : query), ("page", String(number))])
        }
        return .page(
            AccountsPage(
                q: query, total: result.total,
                totalText: request.t.plural("{count} account", "{count} accounts", result.total), page: pageNumber,
                users: result.users.map { user in
                    .init(
                        fullName: user.fullName, email: user.email, group: user.group ?? "",
                        roles: Role.allCases.map {
                            .init(value: $0.rawValue, label: $0.name(request.t), selected: $0 == user.role)
                        },
                        isSelf: user.id == account.user.id, roleAction: SiteRoutes.adminUserRole.path(user.id))
                },
                previousURL: pageNumber > 1 ? pageURL(pageNumber - 1) : nil,
                nextURL: pageNumber < pageCount ? pageURL(pageNumber + 1) : nil))
    }

    struct RoleForm: PageForm {
        var _csrf: String?
        var role: String?
    }

    @Sendable func setRole(_ request: PageRequest, _ account: Authenticated, _ form: RoleForm) async throws
        -> PageAnswer
    {
        let userID = try request.id("userId")
        guard let role = form.role.flatMap(Role.init(rawValue:)) else {
            throw Refusal.invalid(FieldProblem(field: "role", detail: "Choose user, organizer or admin."))
        }
        do {
            let user = try await accounts.setRole(of: userID, to: role, by: account.user)
            return .redirect(
                SiteRoutes.adminUsers.path,
                flash: Self.roleChanged(user.fullName, role, request.t))
        } catch let refusal as Refusal where refusal.reason == .conflict {
            return .redirect(SiteRoutes.adminUsers.path, flash: request.t.detail(refusal), kind: .error)
        }
    }

    /// "Bob Builder is now an organizer.", in the page's language.
    static func roleChanged(_ name: String, _ role: Role, _ t: Translator) -> String {
        switch role {
        case .user: t("{name} is now a user.", ["name": name])
        case .organizer: t("{name} is now an organizer.", ["name": name])
        case .admin: t("{name} is now an admin.", ["name": name])
        }
    }
}

import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import MultipartKit
import NIOCore
import Storage

/// The web app's account pages: home, login, registration, password reset, profile, admin.
struct AccountPages: Sendable {
    let pages: WebPages
    var services: Services { pages.services }
    var accounts: AccountService { services.accounts }

    func register(on routes: PageRoutes) {
        routes.get("/", home)
        routes.get("/login", loginPage)
        routes.post("/login", login)
        routes.post("/logout", logout)
        routes.get("/register", registrationPage)
        routes.post("/register", registration)
        routes.get("/password/forgot", forgotPage)
        routes.post("/password/forgot", forgot)
        routes.get("/password/reset", resetPage)
        routes.post("/password/reset", reset)
        routes.get("/profile", profilePage)
        routes.post("/profile", updateProfile)
        routes.post("/profile/password", changePassword)
        routes.post("/profile/avatar", bodyLimit: BodyLimits.avatarForm, uploadAvatar)
        routes.post("/profile/avatar/delete", deleteAvatar)
        routes.post("/profile/delete", deleteAccount)
        routes.get("/admin/users", usersPage)
        routes.post("/admin/users/:userId/role", setRole)
    }

    // MARK: Forms

    struct CSRFForm: Decodable { var _csrf: String? }

    // MARK: Home

    @Sendable func home(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        return try await pages.render("home", [:], for: visitor, section: "home")
    }

    // MARK: Login and logout

    struct LoginForm: Decodable {
        var _csrf: String?
        var email: String?
        var password: String?
        var next: String?
    }

    @Sendable func loginPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let next = WebPages.safeNext(request.uri.queryParameters["next"].map(String.init))
        if visitor.user != nil { return pages.redirect(to: next, for: visitor) }
        return try await pages.render(
            "login", ["next": next, "demoAccounts": demoAccounts, "hasDemoAccounts": !demoAccounts.isEmpty],
            for: visitor)
    }

    private var demoAccounts: [[String: String]] {
        guard services.configuration.demo else { return [] }
        return Demo.accounts.map { ["email": $0.email, "password": $0.password, "role": $0.role.rawValue] }
    }

    @Sendable func login(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let form = try await pages.form(LoginForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let next = WebPages.safeNext(form.next)
        let email = form.email ?? ""
        do {
            let result = try await accounts.login(
                email: email, password: form.password ?? "", kind: .web,
                address: RequestScope.current?.address ?? "unknown", userAgent: request.headers[.userAgent])
            var response = pages.redirect(
                to: next, flash: "Welcome, \(result.user.firstName)!",
                for: WebPages.Visitor(
                    account: nil, sessionCookie: nil, csrfCookie: Token.make(), isNewCSRFCookie: true, flash: nil,
                    path: visitor.path))
            response.setCookie(
                pages.cookie(CookieName.session, value: result.token, maxAge: Int(AccountService.sessionLifetime)))
            return response
        } catch let problem as Problem where [.unauthorized, .tooManyRequests].contains(problem.status) {
            var response = try await pages.render(
                "login",
                [
                    "next": next, "email": email, "error": problem.detail, "demoAccounts": demoAccounts,
                    "hasDemoAccounts": !demoAccounts.isEmpty,
                ],
                for: visitor, status: problem.status)
            if let retryAfter = problem.headers[.retryAfter] { response.headers[.retryAfter] = retryAfter }
            return response
        }
    }

    @Sendable func logout(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let form = try await pages.form(CSRFForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        if let token = visitor.sessionCookie { try await accounts.logout(token: token) }
        var response = pages.redirect(to: "/", flash: "You are logged out.", for: visitor)
        response.setCookie(pages.expired(CookieName.session))
        return response
    }

    // MARK: Registration

    struct RegistrationForm: Decodable {
        var _csrf: String?
        var email: String?
        var password: String?
        var firstName: String?
        var lastName: String?
        var organizer: String?
    }

    @Sendable func registrationPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        if visitor.user != nil { return pages.redirect(to: "/profile", for: visitor) }
        return try await pages.render("register", [:], for: visitor)
    }

    @Sendable func registration(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let form = try await pages.form(RegistrationForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let values: [String: Any] = [
            "email": form.email ?? "", "firstName": form.firstName ?? "", "lastName": form.lastName ?? "",
            "organizer": form.organizer != nil,
        ]
        do {
            let user = try await accounts.register(
                email: form.email ?? "", password: form.password ?? "", firstName: form.firstName ?? "",
                lastName: form.lastName ?? "", organizer: form.organizer != nil)
            return pages.redirect(
                to: "/login", flash: "Your account is ready, \(user.firstName). Log in with \(user.email).",
                for: visitor)
        } catch let failure as ValidationFailure {
            return try await pages.render(
                "register", values.merging(["errors": WebPages.errorValues(failure)]) { $1 }, for: visitor,
                status: .unprocessableContent)
        } catch StoreError.emailTaken {
            return try await pages.render(
                "register",
                values.merging(["errors": ["email": "An account with this email exists already. Log in instead."]]) {
                    $1
                }, for: visitor, status: .conflict)
        }
    }

    // MARK: Password reset

    struct ForgotForm: Decodable {
        var _csrf: String?
        var email: String?
    }

    @Sendable func forgotPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        try await pages.render("forgot", [:], for: try await pages.visitor(request))
    }

    @Sendable func forgot(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let form = try await pages.form(ForgotForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let email = String((form.email ?? "").prefix(AccountRules.emailMaxLength))
        try await accounts.requestPasswordReset(email: email)
        return try await pages.render("forgot", ["sent": true, "email": email], for: visitor)
    }

    struct ResetForm: Decodable {
        var _csrf: String?
        var token: String?
        var password: String?
        var confirmation: String?
    }

    @Sendable func resetPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let token = request.uri.queryParameters["token"].map(String.init) ?? ""
        return try await pages.render("reset", ["token": token], for: visitor)
    }

    @Sendable func reset(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let visitor = try await pages.visitor(request)
        let form = try await pages.form(ResetForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let token = String((form.token ?? "").prefix(200))
        let password = form.password ?? ""
        if password != (form.confirmation ?? "") {
            return try await pages.render(
                "reset", ["token": token, "errors": ["confirmation": "The two passwords are not the same."]],
                for: visitor, status: .unprocessableContent)
        }
        do {
            try await accounts.resetPassword(token: token, newPassword: password)
        } catch let failure as ValidationFailure {
            return try await pages.render(
                "reset", ["token": token, "errors": WebPages.errorValues(failure)], for: visitor,
                status: .unprocessableContent)
        } catch let problem as Problem where problem.status == .forbidden {
            return try await pages.render(
                "reset", ["token": token, "error": problem.detail], for: visitor, status: .forbidden)
        }
        var response = pages.redirect(
            to: "/login", flash: "Your password is changed. Log in with the new one.", for: visitor)
        response.setCookie(pages.expired(CookieName.session))
        return response
    }

    // MARK: Profile

    private func profile(
        _ visitor: WebPages.Visitor, _ user: UserRecord, extra: [String: Any] = [:], status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        var values: [String: Any] = [
            "profile": WebPages.userValues(user),
            "subgroups": AccountRules.subgroups.map {
                ["value": $0, "label": $0 == 0 ? "Whole group" : "\($0)", "selected": $0 == user.subgroup]
            },
        ]
        for (key, value) in extra { values[key] = value }
        return try await pages.render("profile", values, for: visitor, status: status, section: "profile")
    }

    @Sendable func profilePage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        return try await profile(visitor, account.user)
    }

    struct ProfileForm: Decodable {
        var _csrf: String?
        var firstName: String?
        var lastName: String?
        var group: String?
        var subgroup: String?
    }

    @Sendable func updateProfile(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(ProfileForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        var subgroup: Int?
        if let text = form.subgroup, !text.isEmpty {
            guard let value = Int(text) else {
                return try await profile(
                    visitor, account.user, extra: ["errors": ["subgroup": "Choose a subgroup from the list."]],
                    status: .unprocessableContent)
            }
            subgroup = value
        }
        do {
            _ = try await accounts.updateProfile(
                of: account.user,
                .init(firstName: form.firstName, lastName: form.lastName, group: form.group, subgroup: subgroup))
            return pages.redirect(to: "/profile", flash: "Your profile is saved.", for: visitor)
        } catch let failure as ValidationFailure {
            var shown = account.user
            shown.firstName = form.firstName ?? shown.firstName
            shown.lastName = form.lastName ?? shown.lastName
            shown.group = form.group ?? shown.group
            return try await profile(
                visitor, shown, extra: ["errors": WebPages.errorValues(failure)], status: .unprocessableContent)
        }
    }

    struct PasswordForm: Decodable {
        var _csrf: String?
        var currentPassword: String?
        var newPassword: String?
        var confirmation: String?
    }

    @Sendable func changePassword(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(PasswordForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        guard form.newPassword == form.confirmation else {
            return try await profile(
                visitor, account.user,
                extra: ["passwordErrors": ["confirmation": "The two new passwords are not the same."]],
                status: .unprocessableContent)
        }
        do {
            try await accounts.changePassword(
                of: account, current: form.currentPassword ?? "", new: form.newPassword ?? "")
            return pages.redirect(
                to: "/profile", flash: "Your password is changed. Your other sessions have been logged out.",
                for: visitor)
        } catch let failure as ValidationFailure {
            return try await profile(
                visitor, account.user, extra: ["passwordErrors": WebPages.errorValues(failure)],
                status: .unprocessableContent)
        } catch let problem as Problem where problem.status == .forbidden {
            return try await profile(
                visitor, account.user, extra: ["passwordErrors": ["currentPassword": problem.detail]],
                status: .forbidden)
        }
    }

    struct AvatarForm: Decodable {
        var _csrf: String?
        var avatar: Data?
    }

    @Sendable func uploadAvatar(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType]) else {
            throw Problem.unsupportedMediaType("Upload the avatar with a multipart/form-data form.")
        }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let form: AvatarForm
        do {
            form = try MultipartForm.decode(AvatarForm.self, from: buffer, boundary: boundary)
        } catch {
            throw Problem.badRequest(error.detail)
        }
        try pages.checkCSRF(form._csrf, visitor: visitor)
        guard let data = form.avatar, !data.isEmpty else {
            return try await profile(
                visitor, account.user, extra: ["avatarError": "Choose an image file first."],
                status: .unprocessableContent)
        }
        do {
            _ = try await accounts.setAvatar(
                of: account.user, contentType: "application/octet-stream", data: [UInt8](data))
            return pages.redirect(to: "/profile", flash: "Your avatar is saved.", for: visitor)
        } catch let failure as ValidationFailure {
            return try await profile(
                visitor, account.user, extra: ["avatarError": failure.summary], status: .unprocessableContent)
        } catch let problem as Problem where problem.status == .contentTooLarge {
            return try await profile(
                visitor, account.user, extra: ["avatarError": problem.detail], status: .contentTooLarge)
        }
    }

    @Sendable func deleteAvatar(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(CSRFForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        try await accounts.deleteAvatar(of: account.user)
        return pages.redirect(to: "/profile", flash: "Your avatar is removed.", for: visitor)
    }

    struct DeleteForm: Decodable {
        var _csrf: String?
        var password: String?
    }

    @Sendable func deleteAccount(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(DeleteForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        do {
            try await accounts.deleteAccount(of: account.user, password: form.password ?? "")
        } catch let problem as Problem where [.forbidden, .conflict].contains(problem.status) {
            return try await profile(
                visitor, account.user, extra: ["deleteError": problem.detail], status: problem.status)
        }
        var response = pages.redirect(to: "/", flash: "Your account and its data are deleted. Goodbye!", for: visitor)
        response.setCookie(pages.expired(CookieName.session))
        return response
    }

    // MARK: Administration

    @Sendable func usersPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        guard account.user.role == .admin else { throw Problem.forbidden("Only admins manage accounts.") }
        let query = String((request.uri.queryParameters["q"].map(String.init) ?? "").prefix(100))
        let pageNumber = max(1, min(5000, Int(request.uri.queryParameters["page"] ?? "1") ?? 1))
        let limit = 50
        let result = try await services.database.read { db in
            try await AccountStore(db).users(search: query, role: nil, limit: limit, offset: (pageNumber - 1) * limit)
        }
        let users: [[String: Any]] = result.users.map { user in
            var values = WebPages.userValues(user)
            values["roles"] = Role.allCases.map { ["value": $0.rawValue, "selected": $0 == user.role] }
            values["isSelf"] = user.id == account.user.id
            return values
        }
        let pageCount = max(1, (result.total + limit - 1) / limit)
        var values: [String: Any] = ["users": users, "q": query, "total": result.total, "page": pageNumber]
        if pageNumber > 1 { values["previous"] = pageNumber - 1 }
        if pageNumber < pageCount { values["next"] = pageNumber + 1 }
        return try await pages.render("admin-users", values, for: visitor, section: "admin")
    }

    struct RoleForm: Decodable {
        var _csrf: String?
        var role: String?
    }

    @Sendable func setRole(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(RoleForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        guard let userID = context.parameters.get("userId", as: Int64.self) else {
            throw Problem.notFound("There is no such account.")
        }
        guard let role = form.role.flatMap(Role.init(rawValue:)) else {
            throw Problem.invalid(FieldProblem(field: "role", detail: "Choose user, organizer or admin."))
        }
        do {
            let user = try await accounts.setRole(of: userID, to: role, by: account.user)
            return pages.redirect(
                to: "/admin/users", flash: "\(user.fullName) is now \(role == .user ? "a" : "an") \(role.rawValue).",
                for: visitor)
        } catch let problem as Problem where problem.status == .conflict {
            return pages.redirect(to: "/admin/users", flash: problem.detail, kind: "error", for: visitor)
        }
    }
}

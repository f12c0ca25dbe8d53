import Accounts
import CampusAPI
import CampusHTTP
import Foundation
import InputRules
import OpenAPIRuntime
import SharedHelpers
import Storage

extension Account {
    /// The account as the API shows it.
    var api: Components.Schemas.User {
        Components.Schemas.User(
            id: id, email: email, firstName: firstName, lastName: lastName,
            role: Components.Schemas.Role(rawValue: role.rawValue) ?? .user,
            group: group, subgroup: subgroup,
            avatarUrl: avatarUpdatedAt.map { APIRoutes.avatar.path(id, query: [("v", String($0.epoch))]) },
            language: language, createdAt: createdAt)
    }
}

// MARK: - Accounts

extension APIHandler {
    func register(_ input: Operations.register.Input) async throws -> Operations.register.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the account as JSON.") }
        let user = try await accounts.register(
            email: body.email, password: body.password, firstName: body.firstName, lastName: body.lastName,
            organizer: body.organizer ?? false)
        return .created(.init(body: .json(user.api)))
    }

    func login(_ input: Operations.login.Input) async throws -> Operations.login.Output {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the credentials as JSON.") }
        let scope = RequestScope.current
        let result = try await accounts.login(
            email: body.email, password: body.password, code: body.code, kind: .api,
            address: scope?.address ?? "unknown", userAgent: scope?.userAgent)
        return .ok(
            .init(body: .json(.init(token: result.token, expiresAt: result.session.expiresAt, user: result.user.api))))
    }

    func logout(_ input: Operations.logout.Input) async throws -> Operations.logout.Output {
        _ = try await requireUser()
        if let token = RequestScope.current?.bearerToken ?? RequestScope.current?.sessionCookie {
            try await accounts.logout(token: token)
        }
        return .noContent(.init())
    }

    func requestPasswordReset(_ input: Operations.requestPasswordReset.Input) async throws
        -> Operations.requestPasswordReset.Output
    {
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the email as JSON.") }
        let language = services.languages.choose(choice: nil, acceptLanguage: RequestScope.current?.acceptLanguage)
        try await accounts.requestPasswordReset(email: body.email, language: language)
        return .accepted(
            .init(
                body: .json(
                    .init(
                        message: "If an account has this email address, a reset link valid for one hour is on its way.")
                )
            ))
    }

    func resetPassword(_ input: Operations.resetPassword.Input) async throws -> Operations.resetPassword.Output {
        guard case .json(let body) = input.body else {
            throw Problem.badRequest("Send the token and password as JSON.")
        }
        try await accounts.resetPassword(token: body.token, newPassword: body.password)
        return .noContent(.init())
    }
}

// MARK: - Profile

extension APIHandler {
    func getMe(_ input: Operations.getMe.Input) async throws -> Operations.getMe.Output {
        .ok(.init(body: .json(try await requireUser().user.api)))
    }

    func updateMe(_ input: Operations.updateMe.Input) async throws -> Operations.updateMe.Output {
        let account = try await requireUser()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the changes as JSON.") }
        let user = try await accounts.updateProfile(
            of: account.user,
            .init(
                firstName: body.firstName, lastName: body.lastName, group: body.group, subgroup: body.subgroup,
                language: body.language))
        return .ok(.init(body: .json(user.api)))
    }

    func deleteMe(_ input: Operations.deleteMe.Input) async throws -> Operations.deleteMe.Output {
        let account = try await requireUser()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the password as JSON.") }
        try await accounts.deleteAccount(of: account.user, password: body.password)
        return .noContent(.init())
    }

    func changePassword(_ input: Operations.changePassword.Input) async throws -> Operations.changePassword.Output {
        let account = try await requireUser()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the passwords as JSON.") }
        try await accounts.changePassword(of: account, current: body.currentPassword, new: body.newPassword)
        return .noContent(.init())
    }

    func setAvatar(_ input: Operations.setAvatar.Input) async throws -> Operations.setAvatar.Output {
        let account = try await requireUser()
        let (contentType, body): (String, HTTPBody) =
            switch input.body {
            case .png(let body): ("image/png", body)
            case .jpeg(let body): ("image/jpeg", body)
            case .image_webp(let body): ("image/webp", body)
            }
        let data = try await [UInt8](collecting: body, upTo: BodyLimits.avatar)
        let user = try await accounts.setAvatar(of: account.user, contentType: contentType, data: data)
        return .ok(.init(body: .json(user.api)))
    }

    func deleteAvatar(_ input: Operations.deleteAvatar.Input) async throws -> Operations.deleteAvatar.Output {
        let account = try await requireUser()
        try await accounts.deleteAvatar(of: account.user)
        return .noContent(.init())
    }

    func getAvatar(_ input: Operations.getAvatar.Input) async throws -> Operations.getAvatar.Output {
        _ = try await requireUser()
        let userID = input.path.userId
        guard let avatar = try await accounts.avatar(of: userID) else {
            throw Problem.notFound("Account {id} has no avatar.", ["id": String(userID)])
        }
        let headers = Operations.getAvatar.Output.Ok.Headers(
            Cache_hyphen_Control: "private, max-age=86400", ETag: "\"\(userID)-\(avatar.updatedAt.epoch)\"")
        return .ok(.init(headers: headers, body: .image(avatar.data, contentType: avatar.contentType)))
    }
}

// MARK: - Administration

extension APIHandler {
    func listUsers(_ input: Operations.listUsers.Input) async throws -> Operations.listUsers.Output {
        let account = try await requireAdmin()
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        if let q = input.query.q, q.unicodeScalars.count > 100 {
            throw Problem.invalid(FieldProblem(field: "q", detail: "A search has at most 100 characters."))
        }
        let role = input.query.role.flatMap { Role(rawValue: $0.rawValue) }
        let result = try await accounts.users(
            search: input.query.q, role: role, limit: page.limit, offset: page.offset, by: account.user)
        return .ok(
            .init(
                body: .json(
                    .init(items: result.users.map(\.api), total: result.total, limit: page.limit, offset: page.offset)))
        )
    }

    func getUser(_ input: Operations.getUser.Input) async throws -> Operations.getUser.Output {
        let account = try await requireUser()
        // Other people's accounts are private: to a non-admin they do not exist.
        let user = try await accounts.user(id: input.path.userId, seenBy: account.user)
        return .ok(.init(body: .json(user.api)))
    }

    func setUserRole(_ input: Operations.setUserRole.Input) async throws -> Operations.setUserRole.Output {
        let account = try await requireAdmin()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the role as JSON.") }
        let role = Role(rawValue: body.role.rawValue) ?? .user
        let user = try await accounts.setRole(of: input.path.userId, to: role, by: account.user)
        return .ok(.init(body: .json(user.api)))
    }
}

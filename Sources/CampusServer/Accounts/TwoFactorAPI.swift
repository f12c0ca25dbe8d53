import Accounts
import CampusAPI
import CampusHTTP
import Foundation

/// `/api/v1/me/two-factor`: two-factor sign-in of the signed-in account
/// (``AccountService/startTwoFactor(for:)`` and the rest).
extension APIHandler {
    func getTwoFactor(_ input: Operations.getTwoFactor.Input) async throws -> Operations.getTwoFactor.Output {
        let account = try await requireUser()
        let status = try await accounts.twoFactorStatus(of: account.user)
        return .ok(.init(body: .json(.init(enabled: status.enabled, recoveryCodesLeft: status.recoveryCodesLeft))))
    }

    func startTwoFactor(_ input: Operations.startTwoFactor.Input) async throws -> Operations.startTwoFactor.Output {
        let account = try await requireUser()
        let enrolment = try await accounts.startTwoFactor(for: account.user)
        return .created(.init(body: .json(.init(url: enrolment.url, secret: enrolment.secret))))
    }

    func confirmTwoFactor(_ input: Operations.confirmTwoFactor.Input) async throws
        -> Operations.confirmTwoFactor.Output
    {
        let account = try await requireUser()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the code as JSON.") }
        let codes = try await accounts.confirmTwoFactor(for: account.user, code: body.code)
        return .ok(.init(body: .json(.init(recoveryCodes: codes))))
    }

    func disableTwoFactor(_ input: Operations.disableTwoFactor.Input) async throws
        -> Operations.disableTwoFactor.Output
    {
        let account = try await requireUser()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the password and code as JSON.") }
        try await accounts.disableTwoFactor(
            for: account.user, password: body.password, code: body.code,
            address: RequestScope.current?.address ?? "unknown")
        return .noContent(.init())
    }
}

import Accounts
import CampusHTTP
import Formats
import Foundation
import InputRules
import Localization
import Logging
import Storage

/// What the `campus` command line does to accounts, with the same rules as the API.
public struct Administration: Sendable {
    let accounts: AccountService
    let stations: StationService
    let database: Database

    public init(database: Database, configuration: ServerConfiguration, logger: Logger) {
        self.database = database
        let now: @Sendable () -> Date = { Date() }
        let outbox = Outbox(
            database: database, sender: FileMailSender(dataDirectory: configuration.dataDirectory, logger: logger),
            logger: logger, now: now)
        self.stations = StationService(
            database: database, hasher: PasswordHasher(cost: configuration.bcryptCost), now: now)
        self.accounts = AccountService(
            database: database, hasher: PasswordHasher(cost: configuration.bcryptCost),
            throttle: configuration.loginThrottle, outbox: outbox, baseURL: configuration.resolvedBaseURL,
            languages: .english, now: now, logger: logger)
    }

    /// Creates an account with a role; the password is checked like any other.
    public func createUser(
        email: String, password: String, firstName: String, lastName: String, role: Role
    ) async throws -> Account {
        try await accounts.createAccount(
            email: email, password: password, firstName: firstName, lastName: lastName, role: role, by: .commandLine)
    }

    /// A fresh single-use reset link valid for one hour; nil when no account has this email.
    public func resetLink(email: String) async throws -> String? {
        try await accounts.makeResetLink(email: email)?.url
    }

    /// Changes the role of the account with this email.
    public func setRole(email: String, role: Role) async throws -> Account? {
        guard let user = try await database.read({ db in try await AccountStore(db).credentials(email: email)?.user })
        else { return nil }
        do {
            return try await accounts.setRole(of: user.id, to: role, by: nil)
        } catch let refusal as Refusal where refusal.reason == .conflict {
            throw AdministrationError.lastAdmin
        }
    }

    /// Turns off two-factor sign-in of the account with this email (its owner lost the phone and
    /// the recovery codes); nil when no account has it.
    public func resetTwoFactor(email: String) async throws -> Account? {
        guard let user = try await database.read({ db in try await AccountStore(db).credentials(email: email)?.user })
        else { return nil }
        try await accounts.resetTwoFactor(of: user, by: .commandLine)
        return user
    }

    public func users(search: String?, limit: Int) async throws -> (users: [Account], total: Int) {
        try await database.read { db in
            try await AccountStore(db).users(search: search, role: nil, limit: limit, offset: 0)
        }
    }
}

public enum AdministrationError: Error, CustomStringConvertible {
    case lastAdmin

    public var description: String {
        switch self {
        case .lastAdmin: "This is the only admin; make another account an admin first."
        }
    }
}

/// A short text for a person, for errors the command line prints; problems in the person's
/// language (``CommandLineLanguage``) where the catalogue has them.
public func describeForPeople(_ error: any Error, _ t: Translator = .source) -> String {
    if let error = error as? AdministrationError {
        switch error {
        case .lastAdmin: return t("This is the only admin; make another account an admin first.")
        }
    }
    if let problem = Problem(describing: error) {
        return t.detail(problem)
    }
    return t(phrase(of: error))
}

/// An error's words, as a phrase where Campus wrote them (a ``PhrasedError``), else its
/// description as it is.
func phrase(of error: any Error) -> Phrase {
    (error as? any PhrasedError)?.phrase ?? Phrase(String(describing: error))
}

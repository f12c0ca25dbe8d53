import Accounts
import ArgumentParser
import CampusServer
import Foundation
import Localization
import Storage

struct UserCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user", abstract: "Manage accounts.",
        subcommands: [Create.self, ResetLink.self, ResetTwoFactor.self, SetRole.self, List.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account.",
            discussion: "Without --password, a random password is made and printed once.")

        @OptionGroup var storage: StorageOptions
        @Option var email: String
        @Option(help: "At least 8 characters.") var password: String?
        @Option(name: .customLong("first-name")) var firstName = "Campus"
        @Option(name: .customLong("last-name")) var lastName = "Admin"
        @Flag(help: "Make the account an admin.") var admin = false
        @Flag(help: "Make the account an organizer.") var organizer = false

        func validate() throws {
            if admin && organizer { throw ValidationError("Choose one of --admin and --organizer.") }
        }

        func run() async throws {
            let password = password ?? Self.randomPassword()
            let role: Role = admin ? .admin : organizer ? .organizer : .user
            try await withDatabase(storage) { database, logger in
                let administration = Administration(
                    database: database, configuration: ServerConfiguration(database: database.location), logger: logger)
                do {
                    let user = try await administration.createUser(
                        email: email, password: password, firstName: firstName, lastName: lastName, role: role)
                    print(Self.created(user))
                    if self.password == nil { print(t("Password: {password}", ["password": password])) }
                } catch {
                    throw Failure(error, t)
                }
            }
        }

        /// "Created admin ann@example.org (id 3).", a sentence per role.
        static func created(_ user: Account) -> String {
            let values = ["email": user.email, "id": String(user.id)]
            return switch user.role {
            case .user: t("Created user {email} (id {id}).", values)
            case .organizer: t("Created organizer {email} (id {id}).", values)
            case .admin: t("Created admin {email} (id {id}).", values)
            }
        }

        static func randomPassword() -> String {
            let alphabet = Array("abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789")
            var generator = SystemRandomNumberGenerator()
            return String((0..<16).map { _ in alphabet.randomElement(using: &generator) ?? "a" })
        }
    }

    struct ResetLink: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-link",
            abstract: "Print a single-use password reset link (valid one hour) for an account.")

        @OptionGroup var storage: StorageOptions
        @Argument var email: String
        @Option(name: .customLong("base-url"), help: "The URL users reach Campus by (env CAMPUS_BASE_URL).")
        var baseURL: String?

        func run() async throws {
            try await withDatabase(storage) { database, logger in
                var configuration = ServerConfiguration(database: database.location)
                configuration.baseURL = baseURL ?? Environment.value("CAMPUS_BASE_URL")
                let administration = Administration(database: database, configuration: configuration, logger: logger)
                guard let link = try await administration.resetLink(email: email) else {
                    throw Failure(t("No account has the email address {email}.", ["email": email]))
                }
                print(link)
            }
        }
    }

    struct ResetTwoFactor: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "reset-2fa",
            abstract: "Turn off an account's two-factor sign-in (its owner lost the phone and the recovery codes).")

        @OptionGroup var storage: StorageOptions
        @Argument var email: String

        func run() async throws {
            try await withAdministration(storage) { administration in
                guard let user = try await administration.resetTwoFactor(email: email) else {
                    throw Failure(t("No account has the email address {email}.", ["email": email]))
                }
                print(
                    t(
                        "{email} signs in with the password alone until it sets up two-factor sign-in again.",
                        ["email": user.email]))
            }
        }
    }

    struct SetRole: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "set-role", abstract: "Change an account's role.")

        @OptionGroup var storage: StorageOptions
        @Argument var email: String
        @Argument(help: "user, organizer or admin") var role: String

        func run() async throws {
            guard let role = Role(rawValue: role) else {
                throw ValidationError("The role is user, organizer or admin.")
            }
            try await withDatabase(storage) { database, logger in
                let administration = Administration(
                    database: database, configuration: ServerConfiguration(database: database.location), logger: logger)
                do {
                    guard let user = try await administration.setRole(email: email, role: role) else {
                        throw Failure(t("No account has the email address {email}.", ["email": email]))
                    }
                    let values = ["email": user.email]
                    let done =
                        switch user.role {
                        case .user: t("{email} is now a user.", values)
                        case .organizer: t("{email} is now an organizer.", values)
                        case .admin: t("{email} is now an admin.", values)
                        }
                    print(done)
                } catch let error as AdministrationError {
                    throw Failure(error, t)
                }
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List accounts, newest first.")

        @OptionGroup var storage: StorageOptions
        @Option(help: "Part of a name or email address.") var search: String?
        @Option var limit = 50

        func run() async throws {
            try await withDatabase(storage) { database, logger in
                let administration = Administration(
                    database: database, configuration: ServerConfiguration(database: database.location), logger: logger)
                let result = try await administration.users(search: search, limit: max(1, min(limit, 1000)))
                for user in result.users {
                    print("\(user.id)\t\(user.email)\t\(user.role.rawValue)\t\(user.fullName)")
                }
                print(t.plural("{count} account", "{count} accounts", result.total))
            }
        }
    }
}

import Foundation

/// A person's account, as the domain knows it: who they are, their role, their group and
/// subgroup, their language. The storage reads and writes it (`AccountStore`); services, pages,
/// the API and the Subsonic API pass it around; nothing about it is HTTP or SQL.
public struct Account: Sendable, Equatable {
    public var id: Int64
    public var email: String
    public var firstName: String
    public var lastName: String
    public var role: Role
    public var group: String?
    public var subgroup: Int
    public var createdAt: Date
    public var updatedAt: Date
    /// When the avatar last changed, if the user has one.
    public var avatarUpdatedAt: Date?
    /// The language the user chose (a catalogue's code); nil follows their browser.
    public var language: String?
    /// When the account turned two-factor sign-in on; nil while it signs in with a password alone.
    public var twoFactorSince: Date?

    public init(
        id: Int64, email: String, firstName: String, lastName: String, role: Role, group: String?, subgroup: Int,
        createdAt: Date, updatedAt: Date, avatarUpdatedAt: Date? = nil, language: String? = nil,
        twoFactorSince: Date? = nil
    ) {
        self.id = id
        self.email = email
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
        self.group = group
        self.subgroup = subgroup
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.avatarUpdatedAt = avatarUpdatedAt
        self.language = language
        self.twoFactorSince = twoFactorSince
    }

    public var fullName: String { "\(firstName) \(lastName)" }
}

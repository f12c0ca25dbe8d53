import Accounts
import Foundation

public struct NewUser: Sendable {
    public var email: String
    public var passwordHash: String
    public var firstName: String
    public var lastName: String
    public var role: Role

    public init(email: String, passwordHash: String, firstName: String, lastName: String, role: Role) {
        self.email = email
        self.passwordHash = passwordHash
        self.firstName = firstName
        self.lastName = lastName
        self.role = role
    }
}

public struct SessionRecord: Sendable, Equatable {
    public enum Kind: String, Sendable { case api, web }
    /// The most sessions one account keeps: a new one past it ends the one used longest ago (a
    /// browser or device long gone), so that logging in again and again grows nothing.
    public static let limit = 100
    public var id: Int64
    public var userID: Int64
    public var kind: Kind
    public var createdAt: Date
    public var lastSeenAt: Date
    public var expiresAt: Date
    /// Signed in at the OpenID provider (the session keeps its ID token for logging out there).
    public var atProvider = false
}

public struct OutboxMessage: Sendable, Equatable {
    public var id: Int64
    public var recipient: String
    public var subject: String
    public var body: String
    public var createdAt: Date
    public var attempts: Int
}

/// An image kept in the database (an avatar, a station's image), as it was uploaded.
public struct StoredImage: Sendable, Equatable {
    public var contentType: String
    public var data: [UInt8]
    public var updatedAt: Date

    public init(contentType: String, data: [UInt8], updatedAt: Date) {
        self.contentType = contentType
        self.data = data
        self.updatedAt = updatedAt
    }
}

public enum StoreError: Error, Equatable {
    /// Another account already uses this email address.
    case emailTaken
    /// A row holds a value Campus never writes (the database was changed by hand).
    case damaged(String)
}

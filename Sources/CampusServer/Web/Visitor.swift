import Accounts
import CampusHTTP
import Foundation
import Localization
import Storage

/// Who is asking for a page: the signed-in account (if any), the browser's session and CSRF
/// cookies, and the flash message left by the previous answer.
struct Visitor: Sendable {
    var account: Authenticated?
    var sessionCookie: String?
    var csrfCookie: String
    /// Set when the browser had no CSRF cookie yet, so the answer must set it.
    var isNewCSRFCookie: Bool
    var flash: Flash?
    var path: String
    /// The language the page is in: the user's choice, else the browser's, else the institution's.
    var translator: Translator

    var user: UserRecord? { account?.user }
}

/// A one-time message for the next page, carried in a cookie across a redirect.
struct Flash: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        case success
        case error
    }

    var kind: Kind
    var message: String
}

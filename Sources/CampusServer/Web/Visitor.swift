import Accounts
import CampusHTTP
import Foundation
import Localization
import SharedHelpers
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

    var user: Account? { account?.user }
}

/// A one-time message for the next page, carried in a cookie across a redirect.
struct Flash: Codable, Sendable {
    enum Kind: String, Codable, Sendable {
        case success
        case error
    }

    var kind: Kind
    var message: String

    /// The most a flash cookie's value holds, in bytes. Browsers keep a cookie of up to 4,096
    /// bytes with its name and attributes and drop a longer `Set-Cookie` whole (and with it the
    /// message), so a message of any length is cut to fit here, the one place every flash passes.
    static let cookieValueLimit = 3000

    /// The flash as its cookie's value (base64url of its JSON), the message cut short with "…"
    /// (between characters) when the whole would be longer than ``cookieValueLimit``.
    var cookieValue: String {
        func value(_ message: String) -> String {
            ((try? JSONEncoder().encode(Flash(kind: kind, message: message))) ?? Data()).base64URLEncoded
        }
        let whole = value(message)
        guard whole.utf8.count > Self.cookieValueLimit else { return whole }
        // Every character takes at least a byte, so no more than the limit's count of them fits.
        let characters = Array(message.prefix(Self.cookieValueLimit))
        var fits = 0
        var tooMany = characters.count
        while tooMany - fits > 1 {
            let middle = (fits + tooMany) / 2
            if value(String(characters[..<middle]) + "…").utf8.count <= Self.cookieValueLimit {
                fits = middle
            } else {
                tooMany = middle
            }
        }
        return value(String(characters[..<fits]) + "…")
    }
}

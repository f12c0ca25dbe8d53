import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Localization
import Mustache

/// The typed values a page's template renders. Every page has one: a struct whose properties are
/// the names its template uses (swift-mustache reads them by reflection), so a misspelt name is a
/// compile error where the model is made, never a blank on the page. Values a template shows
/// conditionally are `Bool`s, lists and non-optional text: Mustache looks a missing name up in the
/// enclosing context, so an item never leaves a name out.
protocol PageModel: Sendable {
    /// The template (`Resources/templates/NAME.mustache`).
    static var template: String { get }
    /// The section the page belongs to, marked in the navigation.
    static var section: SiteSection? { get }
}

/// A choice in a form's select or set of checkboxes: what it sends, what it says, and whether it
/// is the one chosen.
struct SelectOption: Sendable {
    var value: String
    var label: String
    var selected: Bool
}

/// The sections of the site.
enum SiteSection: String, Sendable {
    case home, timetable, listen, compete, profile, admin
}

/// What a page handler answers.
enum PageAnswer: Sendable {
    /// A page, rendered in the layout, with headers of its own if it needs them (`Retry-After`).
    case page(any PageModel, status: HTTPResponse.Status, headers: HTTPFields)
    /// A redirect (303) after a form post, with a one-time message for the next page, and maybe a
    /// change of session.
    case redirect(String, flash: String? = nil, kind: Flash.Kind = .success, session: SessionChange = .unchanged)
    /// A response that is not a page (a style sheet, say).
    case response(Response)

    static func page(_ model: any PageModel) -> PageAnswer { .page(model, status: .ok, headers: [:]) }

    static func page(_ model: any PageModel, status: HTTPResponse.Status) -> PageAnswer {
        .page(model, status: status, headers: [:])
    }
}

/// What a form post does to the browser's session.
enum SessionChange: Sendable {
    case unchanged
    /// Signed in: the session cookie, and a new CSRF cookie.
    case signIn(token: String)
    /// Signed out (or the session ended on the server): the session cookie goes.
    case signOut
    /// The visitor chose a language: it is kept in a cookie (a signed-in user's also in their
    /// profile).
    case language(String)
}

/// Field errors keyed by form field name, for templates: `{{#errors.email}}…{{/errors.email}}`.
struct FieldErrors: Sendable {
    private var messages: [String: String] = [:]

    init() {}

    /// The first problem of each field, in the page's language where the catalogue has it.
    init(_ failure: ValidationFailure, _ t: Translator) {
        for problem in failure.problems where messages[problem.field] == nil {
            messages[problem.field] = t.detail(problem)
        }
    }

    init(_ field: String, _ message: String) { messages[field] = message }

    var isEmpty: Bool { messages.isEmpty }
}

extension FieldErrors: MustacheParent {
    func child(named name: String) -> Any? { messages[name] }
}

import Accounts
import Localization
import Storage

/// The models of the account pages (templates `login`, `register`, `forgot`, `reset`, `profile`,
/// `admin-users`).
struct LoginPage: PageModel {
    static let template = "login"
    static let section: SiteSection? = nil

    struct DemoAccount: Sendable {
        var email: String
        var password: String
        var role: String
    }

    var next: String
    /// The registration page, keeping `next`.
    var registerURL: String
    var email = ""
    var error: String?
    /// The account signs in with a second factor: the form asks for its code (and the password again).
    var askCode = false
    var demoAccounts: [DemoAccount]
    var hasDemoAccounts: Bool

    /// The "Sign in with NAME" button of the university's OpenID provider.
    struct SignOn: Sendable {
        var name: String
        var url: String
    }

    var signOn: SignOn? = nil
    /// The email and password form is shown (not with `--password-sign-in off`).
    var passwordSignIn = true
}

struct RegisterPage: PageModel {
    static let template = "register"
    static let section: SiteSection? = nil

    /// Where the visitor goes once registered (and signed in).
    var next: String
    /// The login page, keeping `next`.
    var loginURL: String
    var email = ""
    var firstName = ""
    var lastName = ""
    var organizer = false
    var errors = FieldErrors()
}

struct ForgotPasswordPage: PageModel {
    static let template = "forgot"
    static let section: SiteSection? = nil

    var sent = false
    var email = ""
}

struct ResetPasswordPage: PageModel {
    static let template = "reset"
    static let section: SiteSection? = nil

    var token: String
    var error: String?
    var errors = FieldErrors()
}

struct ProfilePage: PageModel {
    static let template = "profile"
    static let section: SiteSection? = .profile

    struct Subgroup: Sendable {
        var value: Int
        var label: String
        var selected: Bool
    }

    var profile: LayoutUser
    /// The user's role in the page's language.
    var roleName: String
    var subgroups: [Subgroup]
    var errors = FieldErrors()
    var passwordErrors = FieldErrors()
    var avatarError: String?
    var deleteError: String?
    /// False for an account made at the OpenID provider: it has no password to change, and
    /// confirms deleting itself with its email address.
    var hasPassword = true

    init(_ user: Account, _ t: Translator) {
        profile = LayoutUser(user)
        roleName = user.role.name(t)
        subgroups = AccountRules.subgroups.map {
            Subgroup(value: $0, label: $0 == 0 ? t("Whole group") : "\($0)", selected: $0 == user.subgroup)
        }
    }
}

struct AccountsPage: PageModel {
    static let template = "admin-users"
    static let section: SiteSection? = .admin

    struct Account: Sendable {
        struct RoleChoice: Sendable {
            var value: String
            var label: String
            var selected: Bool
        }

        var fullName: String
        var email: String
        var group: String
        var roles: [RoleChoice]
        var isSelf: Bool
        var roleAction: String
    }

    var q: String
    var total: Int
    /// "12 accounts", in the page's language.
    var totalText: String
    var page: Int
    var users: [Account]
    var previousURL: String?
    var nextURL: String?
}

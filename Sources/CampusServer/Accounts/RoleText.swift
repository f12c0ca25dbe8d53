import Accounts
import Localization

extension Role {
    /// The role's name as people read it, in the page's language ("organizer", «организатор»).
    public func name(_ t: Translator) -> String {
        switch self {
        case .user: t("user", context: "role")
        case .organizer: t("organizer", context: "role")
        case .admin: t("admin", context: "role")
        }
    }
}

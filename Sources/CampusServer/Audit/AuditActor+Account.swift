import Accounts
import CampusHTTP

extension AuditActor {
    /// The signed-in account acting in this request, from the request's client address.
    init(_ account: Account) {
        self.init(accountID: account.id, name: account.email, address: RequestScope.current?.address)
    }

    /// The account acting, or the command line when there is none (the CLI's `Administration`
    /// and services called with no actor).
    init(_ account: Account?) {
        if let account { self.init(account) } else { self = .commandLine }
    }
}

extension AuditTarget {
    static func user(_ account: Account) -> AuditTarget {
        AuditTarget(kind: "user", id: account.id, label: account.email)
    }
}

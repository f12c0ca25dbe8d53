import Accounts
import Compete
import Foundation
import InputRules
import Storage

/// Several organizers per competition (seed 002's "several organizers managing one
/// competition"): its owner (or an admin) adds and removes co-organizers, who then enter results
/// and manage participants and the details, but neither delete the competition, (de)activate it
/// nor change its organizers. A co-organizer may step down.
extension CompeteService {
    /// How many co-organizers a competition may have.
    static let organizerLimit = 20

    /// The competition's owner and co-organizers, for anyone who sees it; emails only for those
    /// who manage it.
    func organizers(_ id: Int64, for user: Account) async throws -> (visible: Visible, organizers: [CoOrganizer]) {
        let visible = try await visible(id, to: user)
        var organizers = try await database.read { db in try await CompeteStore(db).organizers(competitionID: id) }
        if !visible.canManage {
            for index in organizers.indices { organizers[index].email = "" }
        }
        return (visible, organizers)
    }

    /// Makes the account a co-organizer (idempotent), with an audit entry when it is new.
    func addOrganizer(_ id: Int64, userID: Int64, by user: Account) async throws -> CoOrganizer {
        let competition = try await owned(id, by: user).competition
        let now = now()
        let added = try await database.write { db -> CoOrganizer in
            let store = CompeteStore(db)
            guard let account = try await AccountStore(db).user(id: userID) else {
                throw Refusal.notFound("There is no account {id}.", ["id": String(userID)])
            }
            guard account.id != competition.ownerID else {
                throw Refusal.conflict("The owner of a competition is its organizer already.")
            }
            if let existing = try await store.organizers(competitionID: id).first(where: { $0.userID == userID }) {
                return existing
            }
            guard try await store.organizerCount(competitionID: id) < Self.organizerLimit else {
                throw Refusal.conflict(
                    "A competition has at most {limit} co-organizers.", ["limit": String(Self.organizerLimit)])
            }
            _ = try await store.addOrganizer(competitionID: id, userID: userID, now: now)
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .organizerAdded, actor: AuditActor(user),
                    target: AuditTarget(kind: "competition", id: id, label: competition.name), after: account.email))
            return CoOrganizer(
                userID: account.id, name: "\(account.firstName) \(account.lastName)", email: account.email,
                addedAt: now)
        }
        logger.info("co-organizer added", metadata: ["competition": "\(id)", "user": "\(userID)", "by": "\(user.id)"])
        return added
    }

    /// ``addOrganizer(_:userID:by:)`` for the account of this email (the web app's form).
    func addOrganizer(_ id: Int64, email: String, by user: Account) async throws -> CoOrganizer {
        _ = try await owned(id, by: user)
        guard
            let account = try await database.read({ db in
                try await AccountStore(db).credentials(email: email)?.user
            })
        else {
            throw Refusal.invalid(
                FieldProblem(field: "email", detail: "There is no account with this email address."))
        }
        return try await addOrganizer(id, userID: account.id, by: user)
    }

    /// Removes a co-organizer: the owner or an admin removes anyone, a co-organizer themselves.
    func removeOrganizer(_ id: Int64, userID: Int64, by user: Account) async throws {
        let visible = try await visible(id, to: user)
        guard visible.canOwn || (visible.row.viewerOrganizes && userID == user.id) else {
            throw Refusal.notAllowed("Only the competition's owner or an admin may do this.")
        }
        let competition = visible.competition
        let now = now()
        try await database.write { db in
            guard let account = try await AccountStore(db).user(id: userID),
                try await CompeteStore(db).removeOrganizer(competitionID: id, userID: userID)
            else {
                throw Refusal.notFound(
                    "Account {id} is not a co-organizer of this competition.", ["id": String(userID)])
            }
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .organizerRemoved, actor: AuditActor(user),
                    target: AuditTarget(kind: "competition", id: id, label: competition.name),
                    before: account.email))
        }
        logger.info(
            "co-organizer removed", metadata: ["competition": "\(id)", "user": "\(userID)", "by": "\(user.id)"])
    }
}

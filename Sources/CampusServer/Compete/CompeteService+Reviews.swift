import Accounts
import Compete
import Foundation
import InputRules
import Storage

/// Honest results (issue 41): a result a participant sends that looks implausible waits for an
/// organizer, who accepts it or rejects it with a reason; the participant may appeal a
/// rejection once; every decision and appeal is in the audit log.
extension CompeteService {
    /// The review a participant's result starts, or nil when nothing looks wrong.
    static func review(
        of value: Double?, track: TrackStatistics?, facts: TrackFacts?, in competition: Competition,
        others: [Double], now: Date
    ) -> Review? {
        guard let value else { return nil }
        let flags = Plausibility.flags(
            value, metric: competition.metric, sport: competition.sport, courseKm: competition.courseKm,
            track: track, facts: facts, others: others)
        return flags.isEmpty ? nil : Review(status: .pending, value: value, flags: flags, at: now)
    }

    /// The entries with a review, those waiting first (oldest first), then the decided ones.
    func reviews(_ id: Int64, by user: Account) async throws -> (visible: Visible, entries: [Entry]) {
        let (visible, entries) = try await participants(id, by: user)
        return (visible, Self.queue(entries.map(\.entry)))
    }

    /// The entries with a review in the queue's order.
    static func queue(_ entries: [Entry]) -> [Entry] {
        entries.filter { $0.review != nil }.sorted { a, b in
            let (x, y) = (a.review?.status.isOpen == true, b.review?.status.isOpen == true)
            if x != y { return x }
            return (a.review?.at ?? .distantPast) < (b.review?.at ?? .distantPast)
        }
    }

    /// An organizer's decision on a waiting result: accepted, it counts; rejected, it keeps the
    /// reason (1 to 1,000 characters), which the participant reads.
    func decide(_ id: Int64, participant: Int64, accept: Bool, reason: String?, by user: Account) async throws
        -> Entry
    {
        let competition = try await managed(id, by: user).competition
        try Self.requireActiveResults(competition)
        let note = accept ? nil : try Self.reviewText(reason ?? "", field: "reason")
        return try await changeReview(competition, participant: participant, by: user) { review, now in
            guard review.status.isOpen else {
                throw Refusal.conflict("This result is not waiting for a review.")
            }
            var decided = review
            decided.status = accept ? .accepted : .rejected
            decided.note = note
            decided.at = now
            return (decided, accept ? .resultAccepted : .resultRejected)
        }
    }

    /// The participant's one appeal against a rejection (1 to 1,000 characters).
    func appeal(_ id: Int64, text: String, user: Account) async throws -> Entry {
        let competition = try await visible(id, to: user).competition
        try Self.requireActiveResults(competition)
        let appeal = try Self.reviewText(text, field: "text")
        return try await changeReview(competition, participant: user.id, by: user) { review, now in
            guard review.status == .rejected, review.appeal == nil else {
                throw Refusal.conflict("Only a rejected result can be appealed, and only once.")
            }
            var appealed = review
            appealed.status = .appealed
            appealed.appeal = appeal
            appealed.at = now
            return (appealed, .resultAppealed)
        }
    }

    /// Changes an entry's review in one transaction with its audit entry.
    private func changeReview(
        _ competition: Competition, participant: Int64, by user: Account,
        _ change: @escaping @Sendable (Review, Date) throws -> (Review, AuditAction)
    ) async throws -> Entry {
        let id = competition.id
        let now = now()
        let changed = try await database.write { db -> (Entry, Int64)? in
            let store = CompeteStore(db)
            guard let entry = try await store.entry(competitionID: id, userID: participant) else { return nil }
            guard let review = entry.review else {
                throw Refusal.conflict("This result was not flagged: there is nothing to review.")
            }
            let (next, action) = try change(review, now)
            try await store.setReview(competitionID: id, userID: participant, next, now: now)
            let text = { (value: Double) in
                ResultText.format(value, metric: competition.metric, unit: competition.unit)
            }
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: action, actor: AuditActor(user),
                    target: AuditTarget(
                        kind: "entry", id: "\(id)/\(participant)",
                        label: "\(competition.name): \(entry.participantName)"),
                    before: "\(review.status.rawValue) \(text(review.value))",
                    after: [next.status.rawValue, next.note ?? next.appeal].compactMap { $0 }.joined(separator: ": ")))
            guard let updated = try await store.entry(competitionID: id, userID: participant),
                let version = try await store.resultsVersion(id: id)
            else { return nil }
            return (updated, version)
        }
        guard let (entry, version) = changed else {
            throw Self.notParticipant(detail: "Account {id} is not in this competition.", ["id": String(participant)])
        }
        await leaderboards.changed(id, version: version, participant: participant, entry: entry)
        return entry
    }

    /// A reason or an appeal: trimmed, 1 to ``CompetitionRules/reviewTextLength`` code points,
    /// several lines.
    static func reviewText(_ text: String, field: String) throws -> String {
        let trimmed = TextRules.trimmed(text.precomposedStringWithCanonicalMapping)
        guard !trimmed.isEmpty else {
            throw Refusal.invalid(FieldProblem(field: field, detail: "Say why, in a few words."))
        }
        if var problem = TextRules.problem(in: trimmed, limit: CompetitionRules.reviewTextLength, multiline: true) {
            problem.values["field"] = field
            throw Refusal.invalid(FieldProblem(field: field, problem))
        }
        return trimmed
    }
}

import Compete
import Foundation
import SQLKit
import SharedHelpers

/// Entries: who joined a competition, with their results and tracks.
extension CompeteStore {
    fileprivate static let entryColumns = """
        e.user_id, u.first_name, u.last_name, u.email, e.result, e.joined_at, e.result_at, e.track_distance,
        e.track_elapsed, e.track_moving, e.track_points, e.track_segments, e.category, e.team, e.laps,
        e.review_status, e.review_value, e.review_flags, e.review_note, e.appeal_text, e.reviewed_at
        """

    fileprivate func entry(from row: any SQLRow) throws -> Entry {
        var track: TrackStatistics?
        if let distance = try row.decode(column: "track_distance", as: Double?.self) {
            track = TrackStatistics(
                distanceMetres: distance, elapsedSeconds: try row.decode(column: "track_elapsed", as: Double?.self),
                movingSeconds: try row.decode(column: "track_moving", as: Double?.self),
                points: try row.decode(column: "track_points", as: Int?.self) ?? 0,
                segments: try row.decode(column: "track_segments", as: Int?.self) ?? 0)
        }
        return Entry(
            participantID: try row.decode(column: "user_id", as: Int64.self),
            participantName:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            result: try row.decode(column: "result", as: Double?.self),
            joinedAt: Date(epoch: try row.decode(column: "joined_at", as: Int64.self)),
            resultAt: try row.decode(column: "result_at", as: Int64?.self).map(Date.init(epoch:)), track: track,
            category: try row.decode(column: "category", as: String?.self),
            team: try row.decode(column: "team", as: String?.self),
            laps: try row.decode(column: "laps", as: String?.self).map {
                try JSONDecoder().decode([Double].self, from: Data($0.utf8))
            } ?? [], review: try review(from: row))
    }

    fileprivate func review(from row: any SQLRow) throws -> Review? {
        guard let status = try row.decode(column: "review_status", as: String?.self).flatMap(ReviewStatus.init),
            let value = try row.decode(column: "review_value", as: Double?.self)
        else { return nil }
        return Review(
            status: status, value: value,
            flags: (try row.decode(column: "review_flags", as: String?.self) ?? "").split(separator: ",")
                .compactMap { Flag(rawValue: String($0)) },
            note: try row.decode(column: "review_note", as: String?.self),
            appeal: try row.decode(column: "appeal_text", as: String?.self),
            at: Date(epoch: try row.decode(column: "reviewed_at", as: Int64?.self) ?? 0))
    }

    /// Every entry of a competition with the participant's email (which only its organizer sees).
    public func entries(competitionID: Int64) async throws -> [(entry: Entry, email: String)] {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.entryColumns) FROM entries e JOIN users u ON u.id = e.user_id
            WHERE e.competition_id = \(bind: competitionID)
            """
        ).all().map { (try entry(from: $0), try $0.decode(column: "email", as: String.self)) }
    }

    /// Every entry of a competition, as its ranking needs them (no emails).
    public func rankingEntries(competitionID: Int64) async throws -> [Entry] {
        try await db.raw(
            """
            SELECT e.user_id, u.first_name, u.last_name, e.result, e.joined_at, e.result_at, e.track_distance,
                e.track_elapsed, e.track_moving, e.track_points, e.track_segments, e.category, e.team, e.laps,
                e.review_status, e.review_value, e.review_flags, e.review_note, e.appeal_text, e.reviewed_at
            FROM entries e JOIN users u ON u.id = e.user_id
            WHERE e.competition_id = \(bind: competitionID)
            """
        ).all().map(entry(from:))
    }

    public func entry(competitionID: Int64, userID: Int64) async throws -> Entry? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.entryColumns) FROM entries e JOIN users u ON u.id = e.user_id
            WHERE e.competition_id = \(bind: competitionID) AND e.user_id = \(bind: userID)
            """
        ).first().map(entry(from:))
    }

    /// Adds the user to the competition; a second join is ``CompeteStoreError/alreadyJoined``.
    public func join(competitionID: Int64, userID: Int64, now: Date) async throws {
        do {
            try await db.insert(into: "entries").columns("competition_id", "user_id", "joined_at")
                .values(SQLBind(competitionID), SQLBind(userID), SQLBind(now.epoch)).run()
        } catch  where isUniqueViolation(error) {
            throw CompeteStoreError.alreadyJoined
        }
        try await bumpResultsVersion(competitionIDs: [competitionID])
    }

    /// Sets an entry's category, team and birth date (each nil clears it). `announce: false` when
    /// the same transaction changes the ranking's version anyway (a join, an edit of the
    /// competition that works every category out again), so that it is bumped once, not per entry.
    public func setDetails(competitionID: Int64, userID: Int64, _ details: EntryDetails, announce: Bool = true)
        async throws
    {
        try await db.update("entries")
            .set("category", to: details.category).set("team", to: details.team).set("born_on", to: details.bornOn)
            .where("competition_id", .equal, competitionID).where("user_id", .equal, userID).run()
        if announce { try await bumpResultsVersion(competitionIDs: [competitionID]) }
    }

    /// Stores a review's new state: accepted (its value becomes the result), rejected with a
    /// note, or appealed.
    public func setReview(competitionID: Int64, userID: Int64, _ review: Review, now: Date) async throws {
        let counted = review.status == .accepted ? review.value : nil
        try await db.update("entries")
            .set("result", to: counted).set("result_at", to: counted == nil ? nil : now.epoch)
            .set("review_status", to: review.status.rawValue).set("review_note", to: review.note)
            .set("appeal_text", to: review.appeal).set("reviewed_at", to: review.at.epoch)
            .where("competition_id", .equal, competitionID).where("user_id", .equal, userID).run()
        try await bumpResultsVersion(competitionIDs: [competitionID])
    }

    /// Puts every entry of the competition into its participant's group (as their profile says now).
    public func categoriesFromGroups(competitionID: Int64) async throws {
        try await db.raw(
            """
            UPDATE entries SET category = (SELECT u.study_group FROM users u WHERE u.id = entries.user_id)
            WHERE competition_id = \(bind: competitionID)
            """
        ).run()
        try await bumpResultsVersion(competitionIDs: [competitionID])
    }

    /// Every entry's category, team and birth date, by participant.
    public func details(competitionID: Int64) async throws -> [Int64: EntryDetails] {
        var details: [Int64: EntryDetails] = [:]
        for row in try await db.raw(
            "SELECT user_id, category, team, born_on FROM entries WHERE competition_id = \(bind: competitionID)"
        ).all() {
            details[try row.decode(column: "user_id", as: Int64.self)] = EntryDetails(
                category: try row.decode(column: "category", as: String?.self),
                team: try row.decode(column: "team", as: String?.self),
                bornOn: try row.decode(column: "born_on", as: String?.self))
        }
        return details
    }

    /// Removes the user's entry and result; false when they were not in it.
    public func leave(competitionID: Int64, userID: Int64) async throws -> Bool {
        guard try await entry(competitionID: competitionID, userID: userID) != nil else { return false }
        try await db.delete(from: "entries").where("competition_id", .equal, competitionID)
            .where("user_id", .equal, userID).run()
        try await bumpResultsVersion(competitionIDs: [competitionID])
        return true
    }

    /// Sets (or with nil clears) a result, with the track or the laps it came from if any: a
    /// result has one source, so a typed one leaves no track and no laps.
    /// With a `review` (a flagged result) the result waits in it and does not count yet.
    public func setResult(
        competitionID: Int64, userID: Int64, value: Double?, track: TrackStatistics?, laps: [Double]? = nil,
        review: Review? = nil, now: Date
    ) async throws {
        let lapsJSON = try laps.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        let counted = review == nil ? value : nil
        try await db.update("entries")
            .set("result", to: counted).set("result_at", to: counted == nil ? nil : now.epoch)
            .set("laps", to: lapsJSON)
            .set("review_status", to: review?.status.rawValue).set("review_value", to: review?.value)
            .set("review_flags", to: review.map { $0.flags.map(\.rawValue).joined(separator: ",") })
            .set("review_note", to: review?.note).set("appeal_text", to: review?.appeal)
            .set("reviewed_at", to: review?.at.epoch)
            .set("track_distance", to: track?.distanceMetres).set("track_elapsed", to: track?.elapsedSeconds)
            .set("track_moving", to: track?.movingSeconds).set("track_points", to: track?.points)
            .set("track_segments", to: track?.segments)
            .where("competition_id", .equal, competitionID).where("user_id", .equal, userID).run()
        try await bumpResultsVersion(competitionIDs: [competitionID])
    }
}

/// What a participant tells about themselves in a competition with categories or teams.
public struct EntryDetails: Sendable, Equatable {
    public var category: String?
    public var team: String?
    /// YYYY-MM-DD, kept only where categories go by age.
    public var bornOn: String?

    public init(category: String? = nil, team: String? = nil, bornOn: String? = nil) {
        self.category = category
        self.team = team
        self.bornOn = bornOn
    }
}

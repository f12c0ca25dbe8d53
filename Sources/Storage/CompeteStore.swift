import Compete
import Foundation
import SQLKit
import SharedHelpers

/// A competition with what lists show beside it.
public struct CompetitionRow: Sendable, Equatable {
    public var competition: Competition
    public var ownerName: String
    public var participants: Int
    /// The entry of the user the list was read for, if they joined.
    public var myEntry: Entry?
    /// Their category, team and birth date.
    public var myDetails: EntryDetails?
    /// Whether the user the list was read for is one of its co-organizers.
    public var viewerOrganizes = false
}

/// Which competitions a list shows.
public struct CompetitionFilter: Sendable {
    public var active: Bool?
    public var ownerID: Int64?
    /// Only competitions this user owns or co-organizes.
    public var organizerID: Int64?
    /// Only competitions this user joined.
    public var participantID: Int64?
    /// Words in the name, in any letter case.
    public var search: String?

    public init(
        active: Bool? = nil, ownerID: Int64? = nil, organizerID: Int64? = nil, participantID: Int64? = nil,
        search: String? = nil
    ) {
        self.active = active
        self.ownerID = ownerID
        self.organizerID = organizerID
        self.participantID = participantID
        self.search = search
    }
}

public enum CompeteStoreError: Error, Equatable {
    /// The user is in this competition already.
    case alreadyJoined
    /// The database returned no id for a new competition.
    case notCreated
}

/// Competitions, entries, results. Every method runs on the `SQLDatabase` it is given, so
/// callers choose the transaction.
public struct CompeteStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    static func searchKey(_ name: String) -> String { name.lowercased() }

    // MARK: Competitions

    private static let columns = """
        c.id, c.name, c.description, c.metric, c.unit, c.starts_at, c.ends_at, c.active, c.participant_uploads,
        c.owner_id, c.template_id, c.series_id, c.created_at, c.updated_at, c.category_rule, c.categories,
        c.team_scoring, c.team_best, c.sport, c.course_km, c.kind, c.faculty
        """

    private func competition(from row: any SQLRow) throws -> Competition {
        Competition(
            id: try row.decode(column: "id", as: Int64.self),
            name: try row.decode(column: "name", as: String.self),
            description: try row.decode(column: "description", as: String.self),
            metric: try row.decodeCase(column: "metric", as: Metric.self),
            unit: try row.decode(column: "unit", as: String.self),
            startsAt: try row.decode(column: "starts_at", as: Int64?.self).map(Date.init(epoch:)),
            endsAt: try row.decode(column: "ends_at", as: Int64?.self).map(Date.init(epoch:)),
            isActive: try row.decode(column: "active", as: Bool.self),
            participantUploads: try row.decode(column: "participant_uploads", as: Bool.self),
            ownerID: try row.decode(column: "owner_id", as: Int64.self),
            templateID: try row.decode(column: "template_id", as: Int64?.self),
            seriesID: try row.decode(column: "series_id", as: Int64.self),
            categoryRule: try row.decodeCase(column: "category_rule", as: CategoryRule.self),
            categories: try JSONDecoder().decode(
                [Category].self, from: Data(try row.decode(column: "categories", as: String.self).utf8)),
            teams: Self.teams(
                try row.decode(column: "team_scoring", as: String.self),
                best: try row.decode(column: "team_best", as: Int?.self)),
            sport: Sport(rawValue: try row.decode(column: "sport", as: String.self)) ?? .other,
            courseKm: try row.decode(column: "course_km", as: Double?.self),
            kind: CompetitionKind(rawValue: try row.decode(column: "kind", as: String.self)) ?? .race,
            faculty: try row.decode(column: "faculty", as: String?.self),
            createdAt: Date(epoch: try row.decode(column: "created_at", as: Int64.self)),
            updatedAt: Date(epoch: try row.decode(column: "updated_at", as: Int64.self)))
    }

    static func teams(_ scoring: String, best: Int?) -> TeamScoring {
        switch (scoring, best) {
        case ("sum", _): .sum
        case ("best", let count?): .best(count)
        default: .off
        }
    }

    static func categoriesJSON(_ categories: [Category]) throws -> String {
        String(decoding: try JSONEncoder().encode(categories), as: UTF8.self)
    }

    /// Creates an active competition (as the seed did: creating is activating). A reuse names
    /// its template and joins the template's series; a new competition starts its own series.
    public func createCompetition(
        _ draft: CompetitionDraft, ownerID: Int64, template: Competition?, now: Date
    ) async throws -> Competition {
        guard
            let id = try await db.insert(into: "competitions")
                .columns(
                    "name", "search_key", "description", "metric", "unit", "starts_at", "ends_at", "active",
                    "participant_uploads", "owner_id", "template_id", "series_id", "created_at", "updated_at",
                    "category_rule", "categories", "team_scoring", "team_best", "sport", "course_km", "kind",
                    "faculty"
                )
                .values(
                    SQLBind(draft.name), SQLBind(Self.searchKey(draft.name)), SQLBind(draft.description),
                    SQLBind(draft.metric.rawValue), SQLBind(draft.unit ?? draft.metric.defaultUnit),
                    SQLBind(draft.startsAt?.epoch), SQLBind(draft.endsAt?.epoch), SQLBind(true),
                    SQLBind(draft.participantUploads), SQLBind(ownerID), SQLBind(template?.id),
                    SQLBind(template?.seriesID ?? 0), SQLBind(now.epoch), SQLBind(now.epoch),
                    SQLBind(draft.categoryRule.rawValue), SQLBind(try Self.categoriesJSON(draft.categories)),
                    SQLBind(draft.teams.name), SQLBind(draft.teams.best), SQLBind(draft.sport.rawValue),
                    SQLBind(draft.courseKm), SQLBind(draft.kind.rawValue), SQLBind(draft.faculty)
                )
                .returning("id")
                .first(decodingColumn: "id", as: Int64.self)
        else { throw CompeteStoreError.notCreated }
        if template == nil {
            try await db.update("competitions").set("series_id", to: id).where("id", .equal, id).run()
        }
        guard let competition = try await competition(id: id) else { throw CompeteStoreError.notCreated }
        return competition
    }

    public func competition(id: Int64) async throws -> Competition? {
        try await db.raw("SELECT \(unsafeRaw: Self.columns) FROM competitions c WHERE c.id = \(bind: id)").first()
            .map(competition(from:))
    }

    public func updateCompetition(id: Int64, _ draft: CompetitionDraft, now: Date) async throws {
        try await db.update("competitions")
            .set("name", to: draft.name).set("search_key", to: Self.searchKey(draft.name))
            .set("description", to: draft.description).set("metric", to: draft.metric.rawValue)
            .set("unit", to: draft.unit ?? draft.metric.defaultUnit)
            .set("starts_at", to: draft.startsAt?.epoch).set("ends_at", to: draft.endsAt?.epoch)
            .set("participant_uploads", to: draft.participantUploads)
            .set("category_rule", to: draft.categoryRule.rawValue)
            .set("categories", to: try Self.categoriesJSON(draft.categories))
            .set("team_scoring", to: draft.teams.name).set("team_best", to: draft.teams.best)
            .set("sport", to: draft.sport.rawValue).set("course_km", to: draft.courseKm)
            .set("kind", to: draft.kind.rawValue).set("faculty", to: draft.faculty)
            .set("updated_at", to: now.epoch)
            .set(SQLIdentifier("results_version"), to: SQLRaw("results_version + 1"))
            .where("id", .equal, id).run()
        try await ResultsChange.announce(competitionIDs: [id], in: db)
    }

    public func setActive(id: Int64, _ active: Bool, now: Date) async throws {
        try await db.update("competitions").set("active", to: active).set("updated_at", to: now.epoch)
            .set(SQLIdentifier("results_version"), to: SQLRaw("results_version + 1"))
            .where("id", .equal, id).run()
        try await ResultsChange.announce(competitionIDs: [id], in: db)
    }

    /// Deletes the competition and its entries.
    public func deleteCompetition(id: Int64) async throws {
        try await db.delete(from: "competitions").where("id", .equal, id).run()
    }

    /// How many competitions the organizer owns (their library, active or not).
    public func competitionCount(ownerID: Int64) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM competitions WHERE owner_id = \(bind: ownerID)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Competitions matching `filter`, by name, with the entry of `viewerID` if any.
    public func competitions(
        _ filter: CompetitionFilter, viewerID: Int64, limit: Int, offset: Int
    ) async throws -> (rows: [CompetitionRow], total: Int) {
        var conditions: [SQLQueryString] = []
        if let active = filter.active { conditions.append("c.active = \(bind: active)") }
        if let owner = filter.ownerID { conditions.append("c.owner_id = \(bind: owner)") }
        if let organizer = filter.organizerID {
            conditions.append(
                """
                (c.owner_id = \(bind: organizer) OR EXISTS (SELECT 1 FROM competition_organizers o
                    WHERE o.competition_id = c.id AND o.user_id = \(bind: organizer)))
                """)
        }
        if let participant = filter.participantID {
            conditions.append(
                "EXISTS (SELECT 1 FROM entries p WHERE p.competition_id = c.id AND p.user_id = \(bind: participant))")
        }
        if let search = filter.search?.trimmingCharacters(in: .whitespaces), !search.isEmpty {
            for word in search.searchWords {
                conditions.append("c.search_key LIKE \(bind: likePattern(word)) ESCAPE '\\'")
            }
        }
        var whereClause: SQLQueryString = ""
        if !conditions.isEmpty {
            whereClause = "WHERE " + conditions.joined(separator: " AND ")
        }
        let total =
            try await db.raw("SELECT COUNT(*) AS n FROM competitions c \(whereClause)")
            .first(decodingColumn: "n", as: Int.self) ?? 0
        let rows = try await db.raw(
            """
            SELECT \(unsafeRaw: Self.columns), u.first_name, u.last_name,
                (SELECT COUNT(*) FROM entries n WHERE n.competition_id = c.id) AS participants,
                m.result AS my_result, m.joined_at AS my_joined_at, m.result_at AS my_result_at,
                m.category AS my_category, m.team AS my_team, m.born_on AS my_born_on,
                (SELECT COUNT(*) FROM competition_organizers o
                    WHERE o.competition_id = c.id AND o.user_id = \(bind: viewerID)) AS viewer_organizes
            FROM competitions c JOIN users u ON u.id = c.owner_id
            LEFT JOIN entries m ON m.competition_id = c.id AND m.user_id = \(bind: viewerID)
            \(whereClause)
            ORDER BY c.search_key, c.id
            LIMIT \(unsafeRaw: String(limit)) OFFSET \(unsafeRaw: String(offset))
            """
        ).all()
        return (try rows.map(row(from:)), total)
    }

    private func row(from row: any SQLRow) throws -> CompetitionRow {
        var entry: Entry?
        var details: EntryDetails?
        if let joined = try row.decode(column: "my_joined_at", as: Int64?.self) {
            details = EntryDetails(
                category: try row.decode(column: "my_category", as: String?.self),
                team: try row.decode(column: "my_team", as: String?.self),
                bornOn: try row.decode(column: "my_born_on", as: String?.self))
            entry = Entry(
                participantID: 0, participantName: "", result: try row.decode(column: "my_result", as: Double?.self),
                joinedAt: Date(epoch: joined),
                resultAt: try row.decode(column: "my_result_at", as: Int64?.self).map(Date.init(epoch:)),
                category: details?.category, team: details?.team)
        }
        return CompetitionRow(
            competition: try competition(from: row),
            ownerName:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            participants: try row.decode(column: "participants", as: Int.self), myEntry: entry, myDetails: details,
            viewerOrganizes: try row.decode(column: "viewer_organizes", as: Int.self) > 0)
    }

    /// One competition as a list shows it.
    public func competitionRow(id: Int64, viewerID: Int64) async throws -> CompetitionRow? {
        try await db.raw(
            """
            SELECT \(unsafeRaw: Self.columns), u.first_name, u.last_name,
                (SELECT COUNT(*) FROM entries n WHERE n.competition_id = c.id) AS participants,
                m.result AS my_result, m.joined_at AS my_joined_at, m.result_at AS my_result_at,
                m.category AS my_category, m.team AS my_team, m.born_on AS my_born_on,
                (SELECT COUNT(*) FROM competition_organizers o
                    WHERE o.competition_id = c.id AND o.user_id = \(bind: viewerID)) AS viewer_organizes
            FROM competitions c JOIN users u ON u.id = c.owner_id
            LEFT JOIN entries m ON m.competition_id = c.id AND m.user_id = \(bind: viewerID)
            WHERE c.id = \(bind: id)
            """
        ).first().map(row(from:))
    }

    // MARK: Versions

    /// A number that grows whenever the competition's ranking may have changed.
    public func resultsVersion(id: Int64) async throws -> Int64? {
        try await db.raw("SELECT results_version FROM competitions WHERE id = \(bind: id)")
            .first(decodingColumn: "results_version", as: Int64.self)
    }

    public func resultsVersions(ids: [Int64]) async throws -> [Int64: Int64] {
        guard !ids.isEmpty else { return [:] }
        let list = ids.map(String.init).joined(separator: ",")
        var versions: [Int64: Int64] = [:]
        for row in try await db.raw(
            "SELECT id, results_version FROM competitions WHERE id IN (\(unsafeRaw: list))"
        ).all() {
            versions[try row.decode(column: "id", as: Int64.self)] = try row.decode(
                column: "results_version", as: Int64.self)
        }
        return versions
    }

    public func bumpResultsVersion(competitionIDs: [Int64]) async throws {
        guard !competitionIDs.isEmpty else { return }
        let list = competitionIDs.map(String.init).joined(separator: ",")
        try await db.raw(
            "UPDATE competitions SET results_version = results_version + 1 WHERE id IN (\(unsafeRaw: list))"
        ).run()
        try await ResultsChange.announce(competitionIDs: competitionIDs, in: db)
    }

    // MARK: Records, history, accounts

    /// The best results of each competition (of one series, if given), ties included: what
    /// every record is made of, read without reading every result.
    public func bestResults(seriesID: Int64? = nil) async throws -> [ResultRecord] {
        let series: SQLQueryString =
            seriesID.map { "AND competition_id IN (SELECT id FROM competitions WHERE series_id = \(bind: $0))" } ?? ""
        return try await db.raw(
            """
            SELECT c.id, c.name, c.series_id, c.metric, c.unit, e.user_id, u.first_name, u.last_name, e.result,
                e.result_at
            FROM (SELECT competition_id, MIN(result) AS lo, MAX(result) AS hi FROM entries
                  WHERE result IS NOT NULL \(series) GROUP BY competition_id) b
            JOIN competitions c ON c.id = b.competition_id AND c.kind = 'race'
            JOIN entries e ON e.competition_id = b.competition_id
                AND e.result = CASE WHEN c.metric = 'time' THEN b.lo ELSE b.hi END
            JOIN users u ON u.id = e.user_id
            """
        ).all().map(resultRecord(from:))
    }

    /// Results (never empty ones) of one participant, of one series, or of everyone.
    public func results(participantID: Int64? = nil, seriesID: Int64? = nil) async throws -> [ResultRecord] {
        // A challenge's total is no result to compare with races' (records, personal bests).
        var conditions: [SQLQueryString] = ["e.result IS NOT NULL", "c.kind = 'race'"]
        if let participantID { conditions.append("e.user_id = \(bind: participantID)") }
        if let seriesID { conditions.append("c.series_id = \(bind: seriesID)") }
        return try await db.raw(
            """
            SELECT c.id, c.name, c.series_id, c.metric, c.unit, e.user_id, u.first_name, u.last_name, e.result,
                e.result_at
            FROM entries e JOIN competitions c ON c.id = e.competition_id JOIN users u ON u.id = e.user_id
            WHERE \(conditions.joined(separator: " AND "))
            """
        ).all().map(resultRecord(from:))
    }

    private func resultRecord(from row: any SQLRow) throws -> ResultRecord {
        ResultRecord(
            competitionID: try row.decode(column: "id", as: Int64.self),
            competitionName: try row.decode(column: "name", as: String.self),
            seriesID: try row.decode(column: "series_id", as: Int64.self),
            metric: try row.decodeCase(column: "metric", as: Metric.self),
            unit: try row.decode(column: "unit", as: String.self),
            participantID: try row.decode(column: "user_id", as: Int64.self),
            participantName:
                "\(try row.decode(column: "first_name", as: String.self)) \(try row.decode(column: "last_name", as: String.self))",
            value: try row.decode(column: "result", as: Double.self),
            at: Date(epoch: try row.decode(column: "result_at", as: Int64?.self) ?? 0))
    }

    /// The competitions a user has entries in.
    public func competitionIDs(participantID: Int64) async throws -> [Int64] {
        try await db.raw("SELECT competition_id FROM entries WHERE user_id = \(bind: participantID)")
            .all(decodingColumn: "competition_id", as: Int64.self)
    }

    /// Every run of a series.
    public func competitionIDs(seriesID: Int64) async throws -> [Int64] {
        try await db.raw("SELECT id FROM competitions WHERE series_id = \(bind: seriesID) ORDER BY id")
            .all(decodingColumn: "id", as: Int64.self)
    }

    /// The competitions a user owns.
    public func competitionIDs(ownerID: Int64) async throws -> [Int64] {
        try await db.raw("SELECT id FROM competitions WHERE owner_id = \(bind: ownerID)")
            .all(decodingColumn: "id", as: Int64.self)
    }

    /// Hands every competition of one owner to another.
    public func transferCompetitions(from ownerID: Int64, to newOwnerID: Int64, now: Date) async throws {
        try await db.update("competitions").set("owner_id", to: newOwnerID).set("updated_at", to: now.epoch)
            .where("owner_id", .equal, ownerID).run()
    }
}

extension CompeteStore {
    /// What deleting an account does to competitions (docs/ACCOUNTS.md): the account's entries go
    /// (their foreign key cascades) and the rankings they were in change version; the
    /// competitions it owns pass to the longest-standing other admin, or, when there is none,
    /// are deleted with their entries.
    public func handOver(competitionsOf userID: Int64, now: Date) async throws {
        try await bumpResultsVersion(competitionIDs: try await competitionIDs(participantID: userID))
        let owned = try await competitionIDs(ownerID: userID)
        guard !owned.isEmpty else { return }
        let admin = try await db.raw(
            "SELECT id FROM users WHERE role = 'admin' AND id <> \(bind: userID) ORDER BY id LIMIT 1"
        ).first(decodingColumn: "id", as: Int64.self)
        if let admin {
            try await transferCompetitions(from: userID, to: admin, now: now)
            try await bumpResultsVersion(competitionIDs: owned)
        } else {
            for id in owned { try await deleteCompetition(id: id) }
        }
    }
}

import CampusAPI
import CampusHTTP
import Compete
import Foundation
import Storage

/// The API's JSON of competitions, entries, records and rankings, made from the domain's values.

extension Metric {
    init(_ metric: Components.Schemas.Metric) {
        switch metric {
        case .distance: self = .distance
        case .time: self = .time
        case .points: self = .points
        }
    }
}

extension Components.Schemas.Metric {
    init(_ metric: Metric) {
        switch metric {
        case .distance: self = .distance
        case .time: self = .time
        case .points: self = .points
        }
    }
}

extension CompetitionChange {
    init(_ body: Components.Schemas.CompetitionChange) {
        self.init(
            name: body.name, description: body.description, metric: body.metric.map(Metric.init), unit: body.unit,
            startsAt: body.clear?.contains(.startsAt) == true ? .some(nil) : body.startsAt.map { .some($0) },
            endsAt: body.clear?.contains(.endsAt) == true ? .some(nil) : body.endsAt.map { .some($0) },
            participantUploads: body.participantUploads, categoryRule: body.categoryRule.map(CategoryRule.init),
            categories: body.categories?.map(Category.init), teams: body.teams.map(TeamScoring.init),
            sport: body.sport.map { Sport(rawValue: $0.rawValue) ?? .other },
            courseKm: body.clear?.contains(.courseKm) == true ? .some(nil) : body.courseKm.map { .some($0) },
            faculty: body.clear?.contains(.faculty) == true ? .some(nil) : body.faculty.map { .some($0) })
    }
}

extension CompeteService.Visible {
    var api: Components.Schemas.Competition {
        let c = competition
        return .init(
            id: c.id, name: c.name, description: c.description, metric: .init(c.metric), unit: c.unit,
            startsAt: c.startsAt, endsAt: c.endsAt, active: c.isActive, participantUploads: c.participantUploads,
            owner: .init(id: c.ownerID, name: row.ownerName), templateId: c.templateID, seriesId: c.seriesID,
            createdAt: c.createdAt, updatedAt: c.updatedAt, participants: row.participants, joined: isJoined,
            myResult: row.myEntry?.result, canManage: canManage, canOwn: canOwn,
            categoryRule: .init(c.categoryRule), categories: c.categories.map(\.api), teams: .init(c.teams),
            sport: .init(rawValue: c.sport.rawValue), courseKm: c.courseKm, kind: .init(rawValue: c.kind.rawValue),
            faculty: c.faculty,
            myEntry: row.myDetails.map {
                .init(category: $0.category, team: $0.team, bornOn: $0.bornOn)
            })
    }
}

extension Entry {
    /// `email` and `bornOn`, and a review's value and words, only for the participant and the
    /// competition's organizers (`detailed`).
    func api(
        rank: Int?, competition: Competition, email: String? = nil, bornOn: String? = nil, detailed: Bool = false
    ) -> Components.Schemas.Entry {
        var track: Components.Schemas.TrackStatistics?
        if let statistics = self.track {
            track = Components.Schemas.TrackStatistics(
                distanceKm: statistics.distanceMetres / 1000, elapsedSeconds: statistics.elapsedSeconds,
                movingSeconds: statistics.movingSeconds, points: statistics.points, segments: statistics.segments)
        }
        let text: String? = result.map { ResultText.format($0, metric: competition.metric, unit: competition.unit) }
        let participant = Components.Schemas.Person(id: participantID, name: participantName)
        let best = LapRules.best(laps, metric: competition.metric)
        return Components.Schemas.Entry(
            rank: rank, participant: participant, email: email, result: result, resultText: text, joinedAt: joinedAt,
            resultAt: resultAt, track: track, category: category, team: team, laps: laps.isEmpty ? nil : laps,
            bestLap: best,
            bestLapText: best.map { ResultText.format($0, metric: competition.metric, unit: competition.unit) },
            review: review.map { review in
                .init(
                    status: .init(rawValue: review.status.rawValue) ?? .pending,
                    flags: review.flags.compactMap { .init(rawValue: $0.rawValue) },
                    value: detailed ? review.value : nil,
                    valueText: detailed
                        ? ResultText.format(review.value, metric: competition.metric, unit: competition.unit) : nil,
                    note: detailed ? review.note : nil, appeal: detailed ? review.appeal : nil,
                    at: detailed ? review.at : nil)
            }, bornOn: bornOn)
    }
}

extension Record {
    var api: Components.Schemas.Record {
        .init(
            metric: .init(metric), unit: unit, value: value,
            valueText: ResultText.format(value, metric: metric, unit: unit),
            holders: holders.map {
                .init(
                    participant: .init(id: $0.participantID, name: $0.participantName),
                    competitionId: $0.competitionID, competitionName: $0.competitionName, at: $0.at)
            })
    }
}

extension Leaderboards.Snapshot {
    func ranking(limit: Int, offset: Int) -> Components.Schemas.Ranking {
        Self.ranking(
            version: version, competition: competition, ranked: ranked, rankedCount: rankedCount, limit: limit,
            offset: offset, categories: categories)
    }

    static func ranking(
        version: Int64, competition: Competition, ranked: [RankedEntry], rankedCount: Int, limit: Int, offset: Int,
        category: String? = nil, categories: [String]? = nil
    ) -> Components.Schemas.Ranking {
        let start = min(offset, ranked.count)
        let end = min(start + limit, ranked.count)
        return .init(
            competitionId: competition.id, version: version, metric: .init(competition.metric), unit: competition.unit,
            active: competition.isActive, total: ranked.count, ranked: rankedCount, limit: limit, offset: offset,
            category: category, categories: categories,
            items: ranked[start..<end].map { $0.entry.api(rank: $0.rank, competition: competition) })
    }

    /// A page of the ranking as the API's JSON, encoded once per version and page.
    func json(limit: Int, offset: Int) -> [UInt8] {
        pages.page(limit: limit, offset: offset) {
            (try? APIJSON.encoder().encode(ranking(limit: limit, offset: offset))).map(Array.init) ?? Array("{}".utf8)
        }
    }

    /// The SSE `ranking` event of a ranking: its first 100 places as a Ranking document.
    static func event(version: Int64, competition: Competition, ranked: [RankedEntry]) -> [UInt8] {
        let encoder = APIJSON.encoder()
        let document = ranking(
            version: version, competition: competition, ranked: ranked,
            rankedCount: ranked.lazy.filter { $0.rank != nil }.count, limit: 100, offset: 0)
        let json = (try? encoder.encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return Array(ServerSentEvent.text(name: "ranking", id: String(version), data: json))
    }
}

extension CategoryRule {
    init(_ rule: Components.Schemas.CategoryRule) {
        switch rule {
        case .none: self = .none
        case .choice: self = .choice
        case .age: self = .age
        case .group: self = .group
        }
    }
}

extension Components.Schemas.CategoryRule {
    init(_ rule: CategoryRule) {
        switch rule {
        case .none: self = .none
        case .choice: self = .choice
        case .age: self = .age
        case .group: self = .group
        }
    }
}

extension Category {
    init(_ category: Components.Schemas.Category) {
        self.init(name: category.name, minAge: category.minAge, maxAge: category.maxAge)
    }

    var api: Components.Schemas.Category { .init(name: name, minAge: minAge, maxAge: maxAge) }
}

extension TeamScoring {
    /// `best` without a count is the sum of the best 3, cross-country's usual.
    init(_ teams: Components.Schemas.TeamScoring) {
        switch teams.scoring {
        case .off: self = .off
        case .sum: self = .sum
        case .best: self = .best(teams.best ?? 3)
        }
    }
}

extension Components.Schemas.TeamScoring {
    init(_ teams: TeamScoring) {
        switch teams {
        case .off: self.init(scoring: .off)
        case .sum: self.init(scoring: .sum)
        case .best(let count): self.init(scoring: .best, best: count)
        }
    }
}

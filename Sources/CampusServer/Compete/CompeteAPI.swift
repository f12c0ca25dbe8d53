import Accounts
import CSV
import CampusAPI
import CampusHTTP
import Compete
import Foundation
import HTTPInput
import InputRules
import OpenAPIRuntime
import ServiceLifecycle
import Storage

extension APIHandler {
    var compete: CompeteService { services.compete }

    // MARK: Competitions

    func listCompetitions(_ input: Operations.listCompetitions.Input) async throws
        -> Operations.listCompetitions.Output
    {
        let user = try await requireUser().user
        let query = input.query
        let page = try Paging(limit: query.limit, offset: query.offset)
        if let q = query.q, q.unicodeScalars.count > 100 {
            throw Problem.invalid(FieldProblem(field: "q", detail: "A search has at most 100 characters."))
        }
        let filter = CompetitionFilter(
            active: query.active, ownerID: query.owner == .me ? user.id : nil,
            participantID: query.joined == true ? user.id : nil, search: query.q)
        let result = try await compete.list(filter, for: user, limit: page.limit, offset: page.offset)
        return .ok(
            .init(
                body: .json(
                    .init(
                        items: result.rows.map(\.api), total: result.total, limit: page.limit, offset: page.offset))))
    }

    func createCompetition(_ input: Operations.createCompetition.Input) async throws
        -> Operations.createCompetition.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the competition as JSON.") }
        let competition = try await compete.create(
            CompetitionDraft(
                name: body.name, description: body.description ?? "", metric: Metric(body.metric), unit: body.unit,
                startsAt: body.startsAt, endsAt: body.endsAt, participantUploads: body.participantUploads ?? false,
                categoryRule: body.categoryRule.map(CategoryRule.init) ?? .none,
                categories: body.categories?.map(Category.init) ?? [], teams: body.teams.map(TeamScoring.init) ?? .off,
                sport: body.sport.flatMap { Sport(rawValue: $0.rawValue) } ?? .other, courseKm: body.courseKm,
                kind: body.kind.flatMap { CompetitionKind(rawValue: $0.rawValue) } ?? .race, faculty: body.faculty),
            by: user)
        return .created(.init(body: .json(try await compete.visible(competition.id, to: user).api)))
    }

    func getCompetition(_ input: Operations.getCompetition.Input) async throws -> Operations.getCompetition.Output {
        let user = try await requireUser().user
        return .ok(.init(body: .json(try await compete.visible(input.path.competitionId, to: user).api)))
    }

    func updateCompetition(_ input: Operations.updateCompetition.Input) async throws
        -> Operations.updateCompetition.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the changes as JSON.") }
        let id = input.path.competitionId
        _ = try await compete.edit(id, change: CompetitionChange(body), by: user)
        return .ok(.init(body: .json(try await compete.visible(id, to: user).api)))
    }

    func deleteCompetition(_ input: Operations.deleteCompetition.Input) async throws
        -> Operations.deleteCompetition.Output
    {
        let user = try await requireUser().user
        try await compete.delete(input.path.competitionId, by: user)
        return .noContent(.init())
    }

    func activateCompetition(_ input: Operations.activateCompetition.Input) async throws
        -> Operations.activateCompetition.Output
    {
        let user = try await requireUser().user
        let id = input.path.competitionId
        _ = try await compete.setActive(id, true, by: user)
        return .ok(.init(body: .json(try await compete.visible(id, to: user).api)))
    }

    func deactivateCompetition(_ input: Operations.deactivateCompetition.Input) async throws
        -> Operations.deactivateCompetition.Output
    {
        let user = try await requireUser().user
        let id = input.path.competitionId
        _ = try await compete.setActive(id, false, by: user)
        return .ok(.init(body: .json(try await compete.visible(id, to: user).api)))
    }

    func reuseCompetition(_ input: Operations.reuseCompetition.Input) async throws
        -> Operations.reuseCompetition.Output
    {
        let user = try await requireUser().user
        let competition = try await compete.reuse(input.path.competitionId, change: CompetitionChange(), by: user)
        return .created(.init(body: .json(try await compete.visible(competition.id, to: user).api)))
    }

    // MARK: Participants and results

    func listParticipants(_ input: Operations.listParticipants.Input) async throws
        -> Operations.listParticipants.Output
    {
        let user = try await requireUser().user
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let (visible, entries) = try await compete.participants(input.path.competitionId, by: user)
        let ranks = Dictionary(
            uniqueKeysWithValues: Ranking.rank(entries.map(\.entry), by: visible.competition.ranksBy).map {
                ($0.entry.participantID, $0.rank)
            })
        // Ranked among all of them, then the page.
        let items = entries.dropFirst(page.offset).prefix(page.limit).map { item in
            item.entry.api(
                rank: ranks[item.entry.participantID] ?? nil, competition: visible.competition, email: item.email,
                detailed: true)
        }
        return .ok(.init(body: .json(items)))
    }

    func joinCompetition(_ input: Operations.joinCompetition.Input) async throws -> Operations.joinCompetition.Output {
        let user = try await requireUser().user
        let id = input.path.competitionId
        let entry = try await compete.join(id, user: user)
        let visible = try await compete.visible(id, to: user)
        return .created(
            .init(
                body: .json(
                    entry.api(
                        rank: nil, competition: visible.competition, bornOn: visible.row.myDetails?.bornOn,
                        detailed: true))))
    }

    func leaveCompetition(_ input: Operations.leaveCompetition.Input) async throws
        -> Operations.leaveCompetition.Output
    {
        let user = try await requireUser().user
        try await compete.leave(input.path.competitionId, user: user)
        return .noContent(.init())
    }

    func kickParticipant(_ input: Operations.kickParticipant.Input) async throws -> Operations.kickParticipant.Output {
        let user = try await requireUser().user
        try await compete.kick(input.path.competitionId, participant: input.path.userId, by: user)
        return .noContent(.init())
    }

    func setResult(_ input: Operations.setResult.Input) async throws -> Operations.setResult.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the result as JSON.") }
        let id = input.path.competitionId
        let entry = try await compete.setResult(id, participant: input.path.userId, value: body.value, by: user)
        return .ok(.init(body: .json(try await rankedEntry(entry, in: id, for: user))))
    }

    func clearResult(_ input: Operations.clearResult.Input) async throws -> Operations.clearResult.Output {
        let user = try await requireUser().user
        let id = input.path.competitionId
        let entry = try await compete.setResult(id, participant: input.path.userId, value: nil, by: user)
        return .ok(.init(body: .json(try await rankedEntry(entry, in: id, for: user))))
    }

    func uploadTrack(_ input: Operations.uploadTrack.Input) async throws -> Operations.uploadTrack.Output {
        let user = try await requireUser().user
        let body: HTTPBody =
            switch input.body {
            // The content tells the format (ActivityTrack), whatever the type says.
            case .application_gpx_plus_xml(let body), .application_vnd_period_garmin_period_tcx_plus_xml(let body),
                .application_vnd_period_ant_period_fit(let body), .application_gzip(let body), .xml(let body),
                .binary(let body):
                body
            }
        let data = Data(try await [UInt8](collecting: body, upTo: BodyLimits.gpx))
        let id = input.path.competitionId
        let entry = try await compete.uploadTrack(id, participant: input.path.userId, gpx: data, by: user)
        return .ok(.init(body: .json(try await rankedEntry(entry, in: id, for: user))))
    }

    /// An entry as the API answers it after a change, with its rank in the ranking as it is now.
    func rankedEntry(_ entry: Entry, in id: Int64, for user: Account, bornOn: String? = nil) async throws
        -> Components.Schemas.Entry
    {
        guard let snapshot = try await services.leaderboards.snapshot(id) else { throw CompeteService.notFound(id) }
        let rank = snapshot.ranked.first { $0.entry.participantID == entry.participantID }?.rank
        return entry.api(rank: rank, competition: snapshot.competition, bornOn: bornOn, detailed: true)
    }

    // MARK: Rankings

    func getRanking(_ input: Operations.getRanking.Input) async throws -> Operations.getRanking.Output {
        let user = try await requireUser().user
        let id = input.path.competitionId
        let page = try Paging(limit: input.query.limit, offset: input.query.offset)
        let snapshot = try await compete.ranking(id, for: user)
        var ranked = snapshot.ranked
        if let category = input.query.category {
            ranked = Ranking.rank(ranked.map(\.entry), by: snapshot.competition.ranksBy, category: category)
        }
        if input.query.friends == true {
            ranked = try await compete.friendsRanking(snapshot, ranked: ranked, for: user)
        } else if input.query.category == nil {
            return .ok(.init(body: .json(snapshot.ranking(limit: page.limit, offset: page.offset))))
        }
        return .ok(
            .init(
                body: .json(
                    Leaderboards.Snapshot.ranking(
                        version: snapshot.version, competition: snapshot.competition, ranked: ranked,
                        rankedCount: ranked.lazy.filter { $0.rank != nil }.count, limit: page.limit,
                        offset: page.offset, category: input.query.category, categories: snapshot.categories))))
    }

    func followRanking(_ input: Operations.followRanking.Input) async throws -> Operations.followRanking.Output {
        let user = try await requireUser().user
        let snapshot = try await compete.ranking(input.path.competitionId, for: user)
        let stream = services.leaderboards.subscribe(snapshot).cancelOnGracefulShutdown()
        return .ok(
            .init(
                headers: .init(Cache_hyphen_Control: "no-store"),
                body: .text_event_hyphen_stream(HTTPBody(stream, length: .unknown, iterationBehavior: .single))))
    }

    func exportResults(_ input: Operations.exportResults.Input) async throws -> Operations.exportResults.Output {
        let user = try await requireUser().user
        let (visible, entries) = try await compete.participants(input.path.competitionId, by: user)
        let id = visible.competition.id
        let category = input.query.category
        let csv = try ResultsCSV.make(
            competition: visible.competition,
            entries: category.map { name in entries.filter { $0.entry.category == name } } ?? entries)
        let filename = "competition-\(id)-results.csv"
        return .ok(
            .init(
                headers: .init(Content_hyphen_Disposition: ContentDisposition.attachment(filename: filename)),
                body: .csv(HTTPBody(csv))))
    }

    func getCompetitionRecords(_ input: Operations.getCompetitionRecords.Input) async throws
        -> Operations.getCompetitionRecords.Output
    {
        let user = try await requireUser().user
        let competition = try await compete.ranking(input.path.competitionId, for: user).competition
        let records = try await compete.records(of: competition)
        return .ok(
            .init(
                body: .json(
                    .init(
                        competition: records.competition?.api, series: records.series?.api, runs: records.runs))))
    }

    // MARK: Me and records

    func getMyCompetitions(_ input: Operations.getMyCompetitions.Input) async throws
        -> Operations.getMyCompetitions.Output
    {
        let user = try await requireUser().user
        let history = try await compete.history(of: user)
        func item(_ element: (visible: CompeteService.Visible, rank: Int?)) -> Components.Schemas.HistoryItem {
            let competition = element.visible.competition
            return .init(
                competition: element.visible.api, rank: element.rank,
                resultText: element.visible.row.myEntry?.result.map {
                    ResultText.format($0, metric: competition.metric, unit: competition.unit)
                })
        }
        return .ok(
            .init(
                body: .json(
                    .init(
                        joined: history.filter { $0.visible.competition.isActive }.map(item),
                        previous: history.filter { !$0.visible.competition.isActive }.map(item)))))
    }

    func getMyStats(_ input: Operations.getMyStats.Input) async throws -> Operations.getMyStats.Output {
        let user = try await requireUser().user
        let stats = try await compete.statistics(of: user)
        return .ok(
            .init(
                body: .json(
                    .init(
                        totalKilometres: stats.totalKilometres, totalMinutes: stats.totalMinutes,
                        competitions: stats.competitions, personalBests: stats.personalBests.map(\.api),
                        results: stats.results.map { result in
                            .init(
                                competitionId: result.competitionID, competitionName: result.competitionName,
                                metric: .init(result.metric), unit: result.unit, value: result.value,
                                valueText: ResultText.format(result.value, metric: result.metric, unit: result.unit),
                                at: result.at)
                        }))))
    }

    func getRecords(_ input: Operations.getRecords.Input) async throws -> Operations.getRecords.Output {
        _ = try await requireUser()
        let records = try await compete.allRecords()
        let series = records.series.sorted { $0.key < $1.key }.map { seriesID, record in
            Components.Schemas.SeriesRecord(
                seriesId: seriesID, name: record.holders.max { $0.at < $1.at }?.competitionName ?? "",
                record: record.api)
        }
        return .ok(.init(body: .json(.init(allTime: records.allTime.map(\.api), series: series))))
    }
}

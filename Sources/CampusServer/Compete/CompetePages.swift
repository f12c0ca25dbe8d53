import Accounts
import CampusHTTP
import Compete
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import MultipartKit
import NIOCore
import Storage
import Timetable

/// Competitions in the browser: the participant's and the organizer's screens of seed 002
/// (home, competition, history, stats, library, active, create/reuse), records, and the live
/// ranking. Every action is a form post checked by ``CompeteService``, as the API is.
struct CompetePages: Sendable {
    let pages: WebPages
    var services: Services { pages.services }
    var compete: CompeteService { services.compete }

    func register(on routes: PageRoutes) {
        routes.get("/compete", home)
        routes.get("/compete/new", newPage)
        routes.post("/compete/new", create)
        routes.get("/compete/library", library)
        routes.get("/compete/mine", mine)
        routes.get("/compete/history", history)
        routes.get("/compete/stats", stats)
        routes.get("/compete/records", records)
        routes.get("/compete/:id", detail)
        routes.get("/compete/:id/edit", editPage)
        routes.post("/compete/:id/edit", edit)
        routes.post("/compete/:id/join") { request, context in
            try await action(request, context, done: "You joined.") { id, user in
                _ = try await compete.join(id, user: user)
            }
        }
        routes.post("/compete/:id/leave") { request, context in
            try await action(request, context, done: "You left the competition; your result is removed.") { id, user in
                try await compete.leave(id, user: user)
            }
        }
        routes.post("/compete/:id/activate") { request, context in
            try await action(request, context, done: "The competition is active again.") { id, user in
                _ = try await compete.setActive(id, true, by: user)
            }
        }
        routes.post("/compete/:id/deactivate") { request, context in
            try await action(request, context, done: "The competition is deactivated; its ranking stays visible.") {
                id, user in _ = try await compete.setActive(id, false, by: user)
            }
        }
        routes.post("/compete/:id/delete") { request, context in
            try await action(
                request, context, done: "The competition and its results are deleted.", to: "/compete/library"
            ) { id, user in try await compete.delete(id, by: user) }
        }
        routes.post("/compete/:id/participants/:userId/result", setResult)
        routes.post("/compete/:id/participants/:userId/kick") { request, context in
            let participant = try participantID(context)
            return try await action(request, context, done: "The participant is removed.") { id, user in
                try await compete.kick(id, participant: participant, by: user)
            }
        }
        routes.post("/compete/:id/participants/:userId/gpx", bodyLimit: BodyLimits.gpxForm, uploadTrack)
    }

    // MARK: Helpers

    private func competitionID(_ context: CampusRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("id", as: Int64.self), id > 0 else {
            throw Problem.notFound("There is no such competition.")
        }
        return id
    }

    private func participantID(_ context: CampusRequestContext) throws -> Int64 {
        guard let id = context.parameters.get("userId", as: Int64.self), id > 0 else {
            throw Problem.notFound("There is no such participant.")
        }
        return id
    }

    struct CSRFForm: Decodable { var _csrf: String? }

    /// A form post that does one thing to a competition, then shows the competition again with
    /// a message; a refused action comes back as a message, not an error page.
    private func action(
        _ request: Request, _ context: CampusRequestContext, done: String, to location: String? = nil,
        _ body: (Int64, UserRecord) async throws -> Void
    ) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(CSRFForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let id = try competitionID(context)
        do {
            try await body(id, account.user)
        } catch let problem as Problem where [.conflict, .unprocessableContent].contains(problem.status) {
            return pages.redirect(to: "/compete/\(id)", flash: problem.detail, kind: "error", for: visitor)
        }
        return pages.redirect(to: location ?? "/compete/\(id)", flash: done, for: visitor)
    }

    /// A date and time for reading, in the institution's time zone.
    func dateText(_ date: Date?) -> String? {
        Self.localInput(date, in: services.configuration.timeZone)?.replacingOccurrences(of: "T", with: " ")
    }

    private func listValues(_ visible: CompeteService.Visible) -> [String: Any] {
        let c = visible.competition
        var values: [String: Any] = [
            "id": c.id, "name": c.name, "description": c.description, "metric": c.metric.rawValue,
            "metricName": Self.metricName(c.metric), "unit": c.unit, "active": c.isActive,
            "participants": visible.row.participants, "owner": visible.row.ownerName, "joined": visible.isJoined,
            "url": "/compete/\(c.id)", "canManage": visible.canManage,
        ]
        if let result = visible.row.myEntry?.result {
            values["myResult"] = ResultText.format(result, metric: c.metric, unit: c.unit)
        }
        return values
    }

    static func metricName(_ metric: Metric) -> String {
        switch metric {
        case .distance: "Distance"
        case .time: "Time"
        case .points: "Points"
        }
    }

    // MARK: Lists

    @Sendable func home(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let query = TimetablePages.parameter(request, "q")
        let result = try await compete.list(
            CompetitionFilter(active: true, search: query), for: account.user, limit: 200, offset: 0)
        return try await pages.render(
            "compete",
            [
                "q": query ?? "", "competitions": result.rows.map(listValues), "total": result.total,
                "empty": result.rows.isEmpty, "isOrganizer": account.user.role.includes(.organizer),
            ], for: visitor, section: "compete")
    }

    @Sendable func library(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let result = try await compete.list(
            CompetitionFilter(ownerID: account.user.id), for: account.user, limit: 200, offset: 0)
        return try await pages.render(
            "compete-library",
            ["competitions": result.rows.map(listValues), "empty": result.rows.isEmpty], for: visitor,
            section: "compete")
    }

    @Sendable func mine(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let rows = try await compete.list(
            CompetitionFilter(ownerID: account.user.id), for: account.user, limit: 200, offset: 0
        ).rows
        let active = rows.filter { $0.competition.isActive }.map(listValues)
        let inactive = rows.filter { !$0.competition.isActive }.map(listValues)
        return try await pages.render(
            "compete-mine",
            ["active": active, "inactive": inactive, "noActive": active.isEmpty, "noInactive": inactive.isEmpty],
            for: visitor, section: "compete")
    }

    @Sendable func history(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let history = try await compete.history(of: account.user)
        func values(_ item: (visible: CompeteService.Visible, rank: Int?)) -> [String: Any] {
            var values = listValues(item.visible)
            if let rank = item.rank { values["rank"] = rank }
            return values
        }
        let joined = history.filter { $0.visible.competition.isActive }.map(values)
        let previous = history.filter { !$0.visible.competition.isActive }.map(values)
        return try await pages.render(
            "compete-history",
            ["joined": joined, "previous": previous, "noJoined": joined.isEmpty, "noPrevious": previous.isEmpty],
            for: visitor, section: "compete")
    }

    @Sendable func stats(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let stats = try await compete.statistics(of: account.user)
        return try await pages.render(
            "compete-stats",
            [
                "kilometres": ResultText.decimal(stats.totalKilometres, places: 2),
                "minutes": ResultText.decimal(stats.totalMinutes, places: 2), "competitions": stats.competitions,
                "bests": stats.personalBests.map(recordValues), "hasBests": !stats.personalBests.isEmpty,
                "charts": ResultsChart.charts(stats.results), "hasResults": !stats.results.isEmpty,
            ], for: visitor, section: "compete")
    }

    @Sendable func records(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, _) = try await pages.signedIn(request)
        let records = try await compete.allRecords()
        let series = records.series.sorted { $0.key < $1.key }.map { _, record -> [String: Any] in
            var values = recordValues(record)
            values["series"] = record.holders.max { $0.at < $1.at }?.competitionName ?? ""
            return values
        }
        return try await pages.render(
            "compete-records",
            [
                "allTime": records.allTime.map(recordValues), "series": series,
                "empty": records.allTime.isEmpty,
            ], for: visitor, section: "compete")
    }

    private func recordValues(_ record: Record) -> [String: Any] {
        [
            "metric": Self.metricName(record.metric), "unit": record.unit,
            "value": ResultText.format(record.value, metric: record.metric, unit: record.unit),
            "holders": record.holders.map {
                ["name": $0.participantName, "competition": $0.competitionName, "url": "/compete/\($0.competitionID)"]
            },
        ]
    }

    // MARK: Create, reuse, edit

    struct CompetitionForm: Decodable {
        var _csrf: String?
        var from: String?
        var name: String?
        var description: String?
        var metric: String?
        var unit: String?
        var startsAt: String?
        var endsAt: String?
        var participantUploads: String?
    }

    private func formValues(_ draft: CompetitionDraft, from: Int64?, action: String, errors: [String: Any] = [:])
        -> [String: Any]
    {
        var values: [String: Any] = [
            "name": draft.name, "description": draft.description, "unit": draft.unit ?? "",
            "startsAt": Self.localInput(draft.startsAt, in: services.configuration.timeZone) ?? "",
            "endsAt": Self.localInput(draft.endsAt, in: services.configuration.timeZone) ?? "",
            "participantUploads": draft.participantUploads, "action": action, "errors": errors,
            "metrics": Metric.allCases.map {
                [
                    "value": $0.rawValue, "name": Self.metricName($0), "rule": $0.rankingRule,
                    "checked": $0 == draft.metric,
                ]
            },
        ]
        if let from { values["from"] = from }
        return values
    }

    /// A date as a `datetime-local` input shows it, in the institution's time zone.
    static func localInput(_ date: Date?, in zone: TimeZone) -> String? {
        guard let date else { return nil }
        let local = LocalDateTime(date, in: zone)
        return "\(local.date.iso)T\(WallTime(minutes: local.minutes)?.description ?? "00:00")"
    }

    /// A `datetime-local` field: `.some(nil)` when empty, nil when it is not a date and time
    /// Campus reads.
    static func parseLocal(_ text: String?, in zone: TimeZone) -> Date?? {
        guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return .some(nil) }
        guard case .success(let local) = LocalDateTime.read(local: text) else { return nil }
        return .some(local.moment(in: zone))
    }

    @Sendable func newPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        guard account.user.role.includes(.organizer) else {
            throw Problem.forbidden("Only organizers create competitions. An admin can make your account an organizer.")
        }
        var draft = CompetitionDraft(name: "", description: "", metric: .distance)
        var from: Int64?
        if let raw = TimetablePages.parameter(request, "from"), let id = Int64(raw) {
            draft = CompetitionDraft(reusing: try await compete.managed(id, by: account.user).competition)
            from = id
        }
        return try await pages.render(
            "compete-form",
            formValues(draft, from: from, action: "/compete/new").merging(
                ["title": from == nil ? "New competition" : "Reuse “\(draft.name)”", "submit": "Activate"]
            ) { a, _ in a }, for: visitor, section: "compete")
    }

    private func draft(_ form: CompetitionForm) -> (CompetitionChange, [String: Any]) {
        let zone = services.configuration.timeZone
        var errors: [String: Any] = [:]
        let starts = Self.parseLocal(form.startsAt, in: zone)
        let ends = Self.parseLocal(form.endsAt, in: zone)
        if starts == nil { errors["startsAt"] = "Write a date and time between 1900 and 2200." }
        if ends == nil { errors["endsAt"] = "Write a date and time between 1900 and 2200." }
        let change = CompetitionChange(
            name: form.name ?? "", description: form.description ?? "",
            metric: form.metric.flatMap(Metric.init(rawValue:)) ?? .distance, unit: form.unit ?? "",
            startsAt: starts ?? .some(nil), endsAt: ends ?? .some(nil),
            participantUploads: form.participantUploads != nil)
        return (change, errors)
    }

    @Sendable func create(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(CompetitionForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let (change, errors) = draft(form)
        let from = form.from.flatMap { Int64($0) }
        do {
            if !errors.isEmpty {
                throw ValidationFailure(errors.map { FieldProblem(field: $0.key, detail: "\($0.value)") })
            }
            let competition =
                if let from {
                    try await compete.reuse(from, change: change, by: account.user)
                } else {
                    try await compete.create(
                        change.applied(to: CompetitionDraft(name: "", description: "", metric: .distance)),
                        by: account.user)
                }
            return pages.redirect(
                to: "/compete/\(competition.id)", flash: "“\(competition.name)” is created and active.", for: visitor)
        } catch {
            guard let problem = Problem(describing: error), problem.status == .unprocessableContent else { throw error }
            let draft = change.applied(to: CompetitionDraft(name: "", description: "", metric: .distance))
            return try await pages.render(
                "compete-form",
                formValues(draft, from: from, action: "/compete/new", errors: Self.errors(problem)).merging(
                    ["title": "New competition", "submit": "Activate"]) { a, _ in a }, for: visitor,
                status: .unprocessableContent, section: "compete")
        }
    }

    static func errors(_ problem: Problem) -> [String: Any] {
        var errors: [String: Any] = [:]
        for field in problem.errors where errors[field.field] == nil { errors[field.field] = field.detail }
        return errors
    }

    @Sendable func editPage(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let id = try competitionID(context)
        let competition = try await compete.managed(id, by: account.user).competition
        return try await pages.render(
            "compete-form",
            formValues(CompetitionDraft(reusing: competition), from: nil, action: "/compete/\(id)/edit").merging(
                ["title": "Edit “\(competition.name)”", "submit": "Save", "cancel": "/compete/\(id)"]) { a, _ in a },
            for: visitor, section: "compete")
    }

    @Sendable func edit(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(CompetitionForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let id = try competitionID(context)
        let (change, errors) = draft(form)
        do {
            if !errors.isEmpty {
                throw ValidationFailure(errors.map { FieldProblem(field: $0.key, detail: "\($0.value)") })
            }
            _ = try await compete.edit(id, change: change, by: account.user)
            return pages.redirect(to: "/compete/\(id)", flash: "Saved.", for: visitor)
        } catch {
            guard let problem = Problem(describing: error) else { throw error }
            if problem.status == .conflict {
                return pages.redirect(to: "/compete/\(id)", flash: problem.detail, kind: "error", for: visitor)
            }
            guard problem.status == .unprocessableContent else { throw error }
            let draft = change.applied(to: CompetitionDraft(name: "", description: "", metric: .distance))
            return try await pages.render(
                "compete-form",
                formValues(draft, from: nil, action: "/compete/\(id)/edit", errors: Self.errors(problem)).merging(
                    ["title": "Edit competition", "submit": "Save", "cancel": "/compete/\(id)"]) { a, _ in a },
                for: visitor, status: .unprocessableContent, section: "compete")
        }
    }

    // MARK: The competition

    @Sendable func detail(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let id = try competitionID(context)
        let visible = try await compete.visible(id, to: account.user)
        let competition = visible.competition
        guard let snapshot = try await services.leaderboards.snapshot(id) else { throw CompeteService.notFound(id) }
        var values = listValues(visible)
        values["rule"] = competition.metric.rankingRule
        values["inactive"] = !competition.isActive
        values["startsAt"] = dateText(competition.startsAt)
        values["endsAt"] = dateText(competition.endsAt)
        values["ranking"] = snapshot.ranked.prefix(500).map { item -> [String: Any] in
            var row: [String: Any] = [
                "name": item.entry.participantName, "me": item.entry.participantID == account.user.id,
            ]
            if let rank = item.rank { row["rank"] = rank }
            if let result = item.entry.result {
                row["result"] = ResultText.format(result, metric: competition.metric, unit: competition.unit)
            }
            return row
        }
        values["rankingMore"] = snapshot.ranked.count > 500 ? snapshot.ranked.count - 500 : nil
        values["noEntries"] = snapshot.ranked.isEmpty
        values["version"] = snapshot.version
        values["canJoin"] = competition.isActive && !visible.isJoined
        values["canLeave"] = competition.isActive && visible.isJoined
        values["canUpload"] = competition.isActive && visible.isJoined && competition.participantUploads
        values["me"] = account.user.id
        if let template = competition.templateID { values["templateUrl"] = "/compete/\(template)" }
        let records = try await compete.records(of: competition)
        if let best = records.competition { values["best"] = recordValues(best) }
        if let series = records.series, records.runs > 1 { values["seriesBest"] = recordValues(series) }
        if visible.canManage {
            let entries = try await services.database.read { db in try await CompeteStore(db).entries(competitionID: id)
            }
            values["participantsList"] = entries.sorted { $0.entry.participantName < $1.entry.participantName }.map {
                item -> [String: Any] in
                var row: [String: Any] = [
                    "userId": item.entry.participantID, "name": item.entry.participantName, "email": item.email,
                    "value": item.entry.result.map {
                        competition.metric == .time ? ResultText.clock($0) : ResultText.decimal($0, places: 3)
                    } ?? "",
                ]
                if let track = item.entry.track {
                    row["track"] =
                        "GPX: \(ResultText.decimal(track.distanceMetres / 1000, places: 2)) km"
                        + (track.elapsedSeconds.map { ", \(ResultText.clock($0))" } ?? "")
                        + (track.movingSeconds.map { " (moving \(ResultText.clock($0)))" } ?? "")
                }
                return row
            }
            values["noParticipants"] = entries.isEmpty
            values["placeholder"] = competition.metric == .time ? "h:mm:ss" : competition.unit
        }
        return try await pages.render("compete-detail", values, for: visitor, section: "compete")
    }

    struct ResultForm: Decodable {
        var _csrf: String?
        var value: String?
    }

    @Sendable func setResult(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let form = try await pages.form(ResultForm.self, request, context)
        try pages.checkCSRF(form._csrf, visitor: visitor)
        let id = try competitionID(context)
        let participant = try participantID(context)
        let competition = try await compete.managed(id, by: account.user).competition
        let text = form.value?.trimmingCharacters(in: .whitespaces) ?? ""
        var value: Double?
        if !text.isEmpty {
            guard let parsed = ResultText.parse(text, metric: competition.metric) else {
                return pages.redirect(
                    to: "/compete/\(id)",
                    flash: competition.metric == .time
                        ? "“\(text)” is not a time: write h:mm:ss, m:ss or seconds."
                        : "“\(text)” is not a number.", kind: "error", for: visitor)
            }
            value = parsed
        }
        do {
            _ = try await compete.setResult(id, participant: participant, value: value, by: account.user)
        } catch {
            guard let problem = Problem(describing: error), [.conflict, .unprocessableContent].contains(problem.status)
            else { throw error }
            return pages.redirect(to: "/compete/\(id)", flash: problem.detail, kind: "error", for: visitor)
        }
        return pages.redirect(
            to: "/compete/\(id)", flash: value == nil ? "Result cleared." : "Result saved.", for: visitor)
    }

    struct TrackForm: Decodable {
        var _csrf: String?
        var gpx: Data?
    }

    @Sendable func uploadTrack(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        let (visitor, account) = try await pages.signedIn(request)
        let id = try competitionID(context)
        let participant = try participantID(context)
        guard let boundary = MultipartForm.boundary(contentType: request.headers[.contentType]) else {
            throw Problem.unsupportedMediaType("Upload the track with a multipart/form-data form.")
        }
        let buffer = try await request.body.collect(upTo: context.maxUploadSize)
        let form: TrackForm
        do {
            form = try MultipartForm.decode(TrackForm.self, from: buffer, boundary: boundary)
        } catch {
            throw Problem.badRequest(error.detail)
        }
        try pages.checkCSRF(form._csrf, visitor: visitor)
        guard let data = form.gpx, !data.isEmpty else {
            return pages.redirect(to: "/compete/\(id)", flash: "Choose a GPX file first.", kind: "error", for: visitor)
        }
        do {
            let entry = try await compete.uploadTrack(id, participant: participant, gpx: data, by: account.user)
            let competition = try await compete.visible(id, to: account.user).competition
            let result = entry.result.map { ResultText.format($0, metric: competition.metric, unit: competition.unit) }
            return pages.redirect(
                to: "/compete/\(id)", flash: "The track gives \(result ?? "no result").", for: visitor)
        } catch {
            guard let problem = Problem(describing: error), [.conflict, .unprocessableContent].contains(problem.status)
            else { throw error }
            return pages.redirect(to: "/compete/\(id)", flash: problem.detail, kind: "error", for: visitor)
        }
    }
}

import Accounts
import CampusHTTP
import Compete
import Foundation
import InputRules
import Localization
import Storage
import Timetable

/// Competitions in the browser: the participant's and the organizer's screens of seed 002
/// (home, competition, history, stats, library, active), records, and the live ranking. Every
/// action is a form post checked by ``CompeteService``, as the API is; creating, reusing and
/// editing are ``CompetitionFormPages``, joining and categories ``CategoryPages``.
struct CompetePages: Sendable {
    let compete: CompeteService
    let configuration: ServerConfiguration
    let leaderboards: Leaderboards

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.compete, home)
        pages.signedInPage(SiteRoutes.competeLibrary, library)
        pages.signedInPage(SiteRoutes.competeMine, mine)
        pages.signedInPage(SiteRoutes.competeHistory, history)
        pages.signedInPage(SiteRoutes.competeStats, stats)
        pages.signedInPage(SiteRoutes.competeRecords) { request, _ in try await records(request) }
        pages.signedInPage(SiteRoutes.competition, detail)
        action(
            SiteRoutes.leaveCompetition, on: pages,
            done: { t in t("You left the competition; your result is removed.") }
        ) {
            id, user in try await compete.leave(id, user: user)
        }
        action(SiteRoutes.activateCompetition, on: pages, done: { t in t("The competition is active again.") }) {
            id, user in
            _ = try await compete.setActive(id, true, by: user)
        }
        action(
            SiteRoutes.deactivateCompetition, on: pages,
            done: { t in t("The competition is deactivated; its ranking stays visible.") }
        ) { id, user in _ = try await compete.setActive(id, false, by: user) }
        action(
            SiteRoutes.deleteCompetition, on: pages, done: { t in t("The competition and its results are deleted.") },
            to: SiteRoutes.competeLibrary.path
        ) { id, user in try await compete.delete(id, by: user) }
        pages.form(SiteRoutes.participantResult, ResultForm.self, setResult)
        pages.form(SiteRoutes.kickParticipant, CSRFForm.self) { request, account, _ in
            let participant = try request.id("userId")
            return try await refusalShown(request) { id in
                try await compete.kick(id, participant: participant, by: account.user)
                return request.t("The participant is removed.")
            }
        }
        pages.upload(SiteRoutes.participantTrack, TrackForm.self, bodyLimit: BodyLimits.gpxForm, uploadTrack)
        pages.form(SiteRoutes.competitionOrganizers, OrganizerForm.self) { request, account, form in
            try await refusalShown(request) { id in
                let added = try await compete.addOrganizer(id, email: form.email ?? "", by: account.user)
                return request.t("{name} is a co-organizer now.", ["name": added.name])
            }
        }
        pages.form(SiteRoutes.removeCompetitionOrganizer, CSRFForm.self) { request, account, _ in
            let organizer = try request.id("userId")
            return try await refusalShown(request) { id in
                try await compete.removeOrganizer(id, userID: organizer, by: account.user)
                return organizer == account.user.id
                    ? request.t("You no longer organize this competition.")
                    : request.t("The co-organizer is removed.")
            }
        }
    }

    struct OrganizerForm: PageForm {
        var _csrf: String?
        var email: String?
    }

    /// A form post that does one thing to a competition, then shows `location` (the
    /// competition) with a message.
    private func action(
        _ route: Route<Int64>, on pages: PageRouter, done: @escaping @Sendable (Translator) -> String,
        to location: String? = nil,
        _ body: @escaping @Sendable (Int64, Account) async throws -> Void
    ) {
        pages.form(route, CSRFForm.self) { request, account, _ in
            let answer = try await refusalShown(request) { id in
                try await body(id, account.user)
                return done(request.t)
            }
            guard let location, case .redirect(_, let flash, .success, _) = answer else { return answer }
            return .redirect(location, flash: flash)
        }
    }

    /// Runs an action on the competition of the path and goes back to it (CompetitionActionAnswer).
    private func refusalShown(_ request: PageRequest, _ body: (Int64) async throws -> String) async throws
        -> PageAnswer
    {
        try await CompetitionActionAnswer.shown(request, body)
    }

    // MARK: Lists

    @Sendable func home(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let query = request.text("q")
        let result = try await compete.list(
            CompetitionFilter(active: true, search: query), for: account.user, limit: 200, offset: 0)
        return .page(
            CompeteHomePage(
                q: query ?? "", competitions: result.rows.map { CompetitionItem($0, t: request.t) },
                total: result.total,
                empty: result.rows.isEmpty, isOrganizer: account.user.role.includes(.organizer)))
    }

    private func owned(by user: Account) async throws -> [CompeteService.Visible] {
        try await compete.list(CompetitionFilter(ownerID: user.id), for: user, limit: 200, offset: 0).rows
    }

    @Sendable func library(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let rows = try await owned(by: account.user)
        return .page(
            CompeteLibraryPage(competitions: rows.map { CompetitionItem($0, t: request.t) }, empty: rows.isEmpty))
    }

    @Sendable func mine(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let user = account.user
        let rows = try await compete.list(CompetitionFilter(organizerID: user.id), for: user, limit: 200, offset: 0)
            .rows
        let active = rows.filter { $0.competition.isActive }.map { CompetitionItem($0, t: request.t) }
        let inactive = rows.filter { !$0.competition.isActive }.map { CompetitionItem($0, t: request.t) }
        return .page(
            CompeteMinePage(
                active: active, inactive: inactive, noActive: active.isEmpty, noInactive: inactive.isEmpty))
    }

    @Sendable func history(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let history = try await compete.history(of: account.user)
        let joined = history.filter { $0.visible.competition.isActive }.map {
            CompetitionItem($0.visible, rank: $0.rank, t: request.t)
        }
        let previous = history.filter { !$0.visible.competition.isActive }.map {
            CompetitionItem($0.visible, rank: $0.rank, t: request.t)
        }
        return .page(
            CompeteHistoryPage(
                joined: joined, previous: previous, noJoined: joined.isEmpty, noPrevious: previous.isEmpty))
    }

    @Sendable func stats(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let stats = try await compete.statistics(of: account.user)
        let text = CompeteText(t: request.t)
        let chart = ResultsChart(text: text, timeZone: configuration.timeZone)
        return .page(
            CompeteStatsPage(
                kilometres: text.decimal(stats.totalKilometres, places: 2),
                minutes: text.decimal(stats.totalMinutes, places: 2), competitions: stats.competitions,
                bests: stats.personalBests.map { RecordView($0, text) }, hasBests: !stats.personalBests.isEmpty,
                charts: chart.charts(stats.results), hasResults: !stats.results.isEmpty))
    }

    func records(_ request: PageRequest) async throws -> PageAnswer {
        let records = try await compete.allRecords()
        let text = CompeteText(t: request.t)
        return .page(
            CompeteRecordsPage(
                allTime: records.allTime.map { RecordView($0, text) },
                series: records.series.sorted { $0.key < $1.key }.map { RecordView($0.value, text) },
                empty: records.allTime.isEmpty))
    }

    // MARK: The competition

    /// A date and time for reading, in the institution's time zone.
    private func dateText(_ date: Date?) -> String? { DateTimeField.text(date, in: configuration.timeZone) }

    @Sendable func detail(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let id = try request.id()
        let visible = try await compete.visible(id, to: account.user)
        let competition = visible.competition
        guard let snapshot = try await leaderboards.snapshot(id) else { throw CompeteService.notFound(id) }
        let records = try await compete.records(of: competition)
        let friendsView = request.text("view") == "friends"
        let category = friendsView ? nil : request.text("category")
        let ranked =
            friendsView
            ? try await compete.friendsRanking(snapshot, for: account.user)
            : category.map { Ranking.rank(snapshot.ranked.map(\.entry), by: competition.ranksBy, category: $0) }
                ?? snapshot.ranked
        let shown = 500
        let tabs = CategoryPages.tabs(snapshot, current: category, CompeteText(t: request.t))
        let me = account.user.id
        let text = CompeteText(t: request.t)
        // The live tracks, for whoever may watch them (CompeteService.checkWatching).
        let watchable =
            competition.metric != .points
            && (visible.canManage || visible.isJoined || compete.isLive(competition))
        // Organizers' rows show every track; a participant's panel only their own.
        let trackings: [Tracking] =
            !watchable
            ? []
            : visible.canManage
                ? try await compete.trackings(id, for: account.user).1
                : try await compete.ownTracking(id, of: account.user).map { [$0] } ?? []
        return .page(
            CompetitionPage(
                id: id, me: me, name: competition.name,
                description: competition.description.isEmpty ? nil : competition.description,
                metricName: text.metric(competition.metric),
                rule: competition.kind == .challenge
                    ? text.t("A challenge: each participant's activities add up, the most first.")
                    : text.rankingRule(competition.metric),
                active: competition.isActive, inactive: !competition.isActive, owner: visible.row.ownerName,
                participants: visible.row.participants, startsAt: dateText(competition.startsAt),
                endsAt: dateText(competition.endsAt),
                templateUrl: competition.templateID.map { SiteRoutes.competition.path($0) },
                canJoin: competition.isActive && !visible.isJoined,
                canLeave: competition.isActive && visible.isJoined,
                canUpload: competition.isActive && visible.isJoined && competition.participantUploads,
                joinURL: SiteRoutes.joinCompetition.path(id), leaveURL: SiteRoutes.leaveCompetition.path(id),
                myTrackURL: SiteRoutes.participantTrack.path(id, me),
                liveMapURL: watchable ? SiteRoutes.liveTracking.path(id) : nil,
                chatURL: visible.canManage || visible.isJoined ? SiteRoutes.competitionChat.path(id) : nil,
                hasLinks: watchable || visible.canManage || visible.isJoined,
                tracking: LiveTrackingPages.panel(visible, mine: trackings.first { $0.userID == me }, text),
                best: records.competition.map { RecordView($0, text) },
                seriesBest: records.runs > 1 ? records.series.map { RecordView($0, text) } : nil,
                entry: CategoryPages.panel(
                    competition, details: visible.row.myDetails,
                    action: visible.isJoined
                        ? SiteRoutes.participantEntry.path(id, me) : SiteRoutes.joinCompetition.path(id),
                    joining: !visible.isJoined, text),
                categoryTabs: tabs, hasCategoryTabs: !tabs.isEmpty, category: category,
                teams: CategoryPages.teams(compete.teams(snapshot), of: competition, text),
                lapRecords: LapPages.records(compete.lapRecords(snapshot), of: competition, text),
                bestLapPattern: text.t("Best lap: {lap}", ["lap": "{lap}"]),
                myReview: ReviewPages.notice(
                    snapshot.ranked.first { $0.entry.participantID == me }?.entry, of: competition, text),
                challenge: try await ChallengePages(compete: compete, configuration: configuration).panel(
                    visible, user: account.user, text),
                underReviewText: text.t("under review"),
                liveURL: APIRoutes.liveRanking.path(id), version: snapshot.version,
                staticView: friendsView || category != nil, friendsView: friendsView,
                everyoneURL: SiteRoutes.competition.path(id),
                friendsURL: SiteRoutes.competition.path(id, query: [("view", "friends")]),
                personPattern: SiteRoutes.person.pattern,
                ranking: ranked.prefix(shown).map { item in
                    let participant = item.entry.participantID
                    return .init(
                        rank: item.rank, name: item.entry.participantName,
                        url: participant == me ? nil : SiteRoutes.person.path(participant), me: participant == me,
                        result: item.entry.result.map {
                            text.result($0, metric: competition.metric, unit: competition.unit)
                        }, bestLap: LapPages.bestLap(item.entry, of: competition, text),
                        underReview: item.entry.review?.status.isOpen == true)
                },
                rankingMore: ranked.count > shown ? ranked.count - shown : nil,
                noEntries: snapshot.ranked.isEmpty,
                canManage: visible.canManage
                    ? try await organizer(of: competition, by: account.user, trackings: trackings, text) : nil))
    }

    /// The organizer's panel: the competition's actions and every participant with their result.
    private func organizer(
        of competition: Competition, by user: Account, trackings: [Tracking], _ text: CompeteText
    ) async throws -> CompetitionPage.Organizer {
        let id = competition.id
        let live = Dictionary(trackings.map { ($0.userID, $0) }, uniquingKeysWith: { first, _ in first })
        let (visible, entries) = try await compete.participants(id, by: user)
        // The review queue from the same entries: one read of them.
        let reviews = ReviewPages.queue(CompeteService.queue(entries.map(\.entry)), of: competition, text)
        let organizers = try await compete.organizers(id, for: user).organizers
        let hasEntries = competition.categoryRule != .none || competition.teams != .off
        return .init(
            canOwn: visible.canOwn,
            organizers: organizers.map { organizer in
                .init(
                    name: organizer.name, email: organizer.email,
                    removeURL: visible.canOwn || organizer.userID == user.id
                        ? SiteRoutes.removeCompetitionOrganizer.path(id, organizer.userID) : nil,
                    isMe: organizer.userID == user.id)
            },
            addOrganizerURL: SiteRoutes.competitionOrganizers.path(id),
            editURL: SiteRoutes.editCompetition.path(id), activateURL: SiteRoutes.activateCompetition.path(id),
            deactivateURL: SiteRoutes.deactivateCompetition.path(id), exportURL: APIRoutes.resultsCSV.path(id),
            reuseURL: SiteRoutes.newCompetition.path(query: [("from", String(id))]),
            deleteURL: SiteRoutes.deleteCompetition.path(id),
            participantsList: entries.map { item in
                let participant = item.entry.participantID
                return .init(
                    userId: participant, name: item.entry.participantName, email: item.email,
                    value: item.entry.result.map {
                        competition.metric == .time ? ResultText.clock($0) : text.decimal($0, places: 3)
                    } ?? "",
                    track: item.entry.track.map { track in
                        let distance = text.result(track.distanceMetres / 1000, metric: .distance, unit: "km")
                        let t = text.t
                        return switch (track.elapsedSeconds, track.movingSeconds) {
                        case (let elapsed?, let moving?):
                            t(
                                "GPX: {distance}, {time} (moving {moving})",
                                [
                                    "distance": distance, "time": ResultText.clock(elapsed),
                                    "moving": ResultText.clock(moving),
                                ])
                        case (let elapsed?, nil):
                            t("GPX: {distance}, {time}", ["distance": distance, "time": ResultText.clock(elapsed)])
                        default: t("GPX: {distance}", ["distance": distance])
                        }
                    },
                    liveTrack: live[participant].map { tracking in
                        let figures = LiveTrackingPages.figures(tracking, text)
                        return tracking.finishedAt == nil
                            ? text.t("Live track: {figures}", ["figures": figures])
                            : text.t("Live track, finished: {figures}", ["figures": figures])
                    },
                    confirmTrackingURL: live[participant] == nil
                        ? nil : SiteRoutes.confirmTracking.path(id, participant),
                    resultURL: SiteRoutes.participantResult.path(id, participant),
                    lapsURL: competition.metric == .points ? nil : SiteRoutes.participantLaps.path(id, participant),
                    laps: LapPages.text(item.entry.laps, metric: competition.metric, text),
                    entryURL: hasEntries ? SiteRoutes.participantEntry.path(id, participant) : nil,
                    category: item.entry.category ?? "", team: item.entry.team ?? "",
                    trackURL: SiteRoutes.participantTrack.path(id, participant),
                    kickURL: SiteRoutes.kickParticipant.path(id, participant))
            },
            noParticipants: entries.isEmpty,
            categoryChoices: competition.categoryRule == .group || competition.categoryRule == .none
                ? nil : competition.categories.map(\.name),
            hasCategories: competition.categoryRule != .none, hasTeams: competition.teams != .off,
            reviews: reviews, hasReviews: !reviews.isEmpty,
            placeholder: text.unit(competition.unit, metric: competition.metric))
    }

    // MARK: Results and tracks

    struct ResultForm: PageForm {
        var _csrf: String?
        var value: String?
    }

    @Sendable func setResult(_ request: PageRequest, _ account: Authenticated, _ form: ResultForm) async throws
        -> PageAnswer
    {
        let participant = try request.id("userId")
        return try await refusalShown(request) { id in
            let competition = try await compete.managed(id, by: account.user).competition
            let text = form.value?.trimmingCharacters(in: .whitespaces) ?? ""
            var value: Double?
            if !text.isEmpty {
                guard let parsed = ResultText.parse(text, metric: competition.metric) else {
                    if competition.metric == .time {
                        throw Refusal.invalid(
                            FieldProblem(
                                field: "value", detail: "“{text}” is not a time: write h:mm:ss, m:ss or seconds.",
                                ["text": text]))
                    }
                    throw Refusal.invalid(
                        FieldProblem(field: "value", detail: "“{text}” is not a number.", ["text": text]))
                }
                value = parsed
            }
            _ = try await compete.setResult(id, participant: participant, value: value, by: account.user)
            return value == nil ? request.t("Result cleared.") : request.t("Result saved.")
        }
    }

    struct TrackForm: PageForm {
        var _csrf: String?
        var gpx: Data?
    }

    @Sendable func uploadTrack(_ request: PageRequest, _ account: Authenticated, _ form: TrackForm) async throws
        -> PageAnswer
    {
        let participant = try request.id("userId")
        return try await refusalShown(request) { id in
            guard let data = form.gpx, !data.isEmpty else {
                throw Refusal.invalid(FieldProblem(field: "gpx", detail: "Choose a GPX file first."))
            }
            let entry = try await compete.uploadTrack(id, participant: participant, gpx: data, by: account.user)
            let competition = try await compete.visible(id, to: account.user).competition
            let text = CompeteText(t: request.t)
            guard let result = entry.result.map({ text.result($0, metric: competition.metric, unit: competition.unit) })
            else { return request.t("The track gives no result.") }
            return request.t("The track gives {result}.", ["result": result])
        }
    }
}

import Accounts
import CampusHTTP
import Compete
import Foundation
import InputRules
import Localization
import Storage
import Timetable

/// Creating a competition, reusing one from the library (seed 002: the new run starts pre-filled,
/// without participants) and editing one.
struct CompetitionFormPages: Sendable {
    let compete: CompeteService
    let configuration: ServerConfiguration
    var zone: TimeZone { configuration.timeZone }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.newCompetition, newPage)
        pages.form(SiteRoutes.newCompetition, CompetitionForm.self, create)
        pages.signedInPage(SiteRoutes.editCompetition, editPage)
        pages.form(SiteRoutes.editCompetition, CompetitionForm.self, edit)
    }

    struct CompetitionForm: PageForm {
        var _csrf: String?
        var from: String?
        var name: String?
        var description: String?
        var metric: String?
        var unit: String?
        var startsAt: String?
        var endsAt: String?
        var participantUploads: String?
        var categoryRule: String?
        var categories: String?
        var teamScoring: String?
        var teamBest: String?
        var sport: String?
        var courseKm: String?
        var kind: String?
        var faculty: String?
    }

    private static let blank = CompetitionDraft(name: "", description: "", metric: .distance)

    private func page(
        _ draft: CompetitionDraft, title: String, submit: String, action: String, cancel: String? = nil,
        from: Int64? = nil, choosesKind: Bool = true, errors: FieldErrors = FieldErrors(), _ t: Translator
    ) -> CompetitionFormPage {
        let text = CompeteText(t: t)
        return CompetitionFormPage(
            title: title, submit: submit, action: action, cancel: cancel, from: from, name: draft.name,
            description: draft.description, unit: draft.unit ?? "",
            startsAt: DateTimeField.value(draft.startsAt, in: zone) ?? "",
            endsAt: DateTimeField.value(draft.endsAt, in: zone) ?? "", participantUploads: draft.participantUploads,
            metrics: Metric.allCases.map {
                .init(
                    value: $0.rawValue, name: text.metric($0), rule: text.rankingRule($0), checked: $0 == draft.metric)
            },
            categoryRules: CategoryRule.allCases.map {
                .init(value: $0.rawValue, name: text.categoryRule($0), checked: $0 == draft.categoryRule)
            },
            categories: CategoryLines.text(draft.categories, rule: draft.categoryRule),
            teamChoices: [TeamScoring.off, .sum, .best(draft.teams.best ?? 3)].map {
                .init(value: $0.name, name: text.teamScoring($0), checked: $0.name == draft.teams.name)
            },
            teamBest: String(draft.teams.best ?? 3),
            kinds: CompetitionKind.allCases.map {
                .init(
                    value: $0.rawValue,
                    name: $0 == .race
                        ? t("A race: one result each") : t("A challenge: activities add up over the period"),
                    checked: $0 == draft.kind)
            }, choosesKind: choosesKind, faculty: draft.faculty ?? "",
            sports: Sport.allCases.map { .init(value: $0.rawValue, name: text.sport($0), checked: $0 == draft.sport) },
            courseKm: draft.courseKm.map { text.decimal($0, places: 3) } ?? "", errors: errors)
    }

    /// The change a form asks for; a date that is not one is a field problem.
    private func change(_ form: CompetitionForm) throws -> CompetitionChange {
        var validator = Validator()
        let starts = DateTimeField.read(form.startsAt, in: zone)
        let ends = DateTimeField.read(form.endsAt, in: zone)
        for (field, date) in [("startsAt", starts), ("endsAt", ends)] where date == nil {
            validator.add(FieldProblem(field: field, detail: "Write a date and time between 1900 and 2200."))
        }
        let rule = form.categoryRule.flatMap(CategoryRule.init(rawValue:)) ?? .none
        let categories = CategoryLines.read(form.categories ?? "", rule: rule)
        if let line = categories.unreadable {
            validator.add(
                FieldProblem(
                    field: "categories",
                    detail: "“{line}”: write an age category as “Name: 18-29”, “Name: 40-” or “Name: -17”.",
                    ["line": line]))
        }
        let best = Int(form.teamBest?.trimmingCharacters(in: .whitespaces) ?? "")
        let teams: TeamScoring =
            switch form.teamScoring {
            case "sum": .sum
            case "best": .best(best ?? 0)
            default: .off
            }
        let courseText = form.courseKm?.trimmingCharacters(in: .whitespaces) ?? ""
        let course = courseText.isEmpty ? nil : ResultText.parse(courseText, metric: .distance)
        if !courseText.isEmpty, course == nil {
            validator.add(FieldProblem(field: "courseKm", detail: "“{text}” is not a number.", ["text": courseText]))
        }
        try validator.finish()
        return CompetitionChange(
            name: form.name ?? "", description: form.description ?? "",
            metric: form.metric.flatMap(Metric.init(rawValue:)) ?? .distance, unit: form.unit ?? "",
            startsAt: starts ?? .some(nil), endsAt: ends ?? .some(nil),
            participantUploads: form.participantUploads != nil, categoryRule: rule, categories: categories.list,
            teams: teams, sport: form.sport.flatMap(Sport.init(rawValue:)) ?? .other, courseKm: .some(course),
            faculty: .some(form.faculty), kind: form.kind.flatMap(CompetitionKind.init(rawValue:)))
    }

    /// What the form showed again, when it comes back with its problems.
    private func shown(_ form: CompetitionForm) -> CompetitionDraft {
        var draft = Self.blank
        draft.name = form.name ?? ""
        draft.description = form.description ?? ""
        draft.metric = form.metric.flatMap(Metric.init(rawValue:)) ?? .distance
        draft.unit = form.unit
        draft.startsAt = DateTimeField.read(form.startsAt, in: zone) ?? nil
        draft.endsAt = DateTimeField.read(form.endsAt, in: zone) ?? nil
        draft.participantUploads = form.participantUploads != nil
        draft.categoryRule = form.categoryRule.flatMap(CategoryRule.init(rawValue:)) ?? .none
        draft.categories = CategoryLines.read(form.categories ?? "", rule: draft.categoryRule).list
        let best = Int(form.teamBest?.trimmingCharacters(in: .whitespaces) ?? "") ?? 3
        draft.teams = form.teamScoring == "sum" ? .sum : form.teamScoring == "best" ? .best(best) : .off
        draft.sport = form.sport.flatMap(Sport.init(rawValue:)) ?? .other
        draft.courseKm = form.courseKm.flatMap { ResultText.parse($0, metric: .distance) }
        draft.kind = form.kind.flatMap(CompetitionKind.init(rawValue:)) ?? .race
        draft.faculty = form.faculty
        return draft
    }

    // MARK: Create and reuse

    @Sendable func newPage(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        guard account.user.role.includes(.organizer) else {
            throw Refusal.notAllowed(
                "Only organizers create competitions. An admin can make your account an organizer.")
        }
        if let raw = request.query("from"), let id = Int64(raw) {
            let draft = CompetitionDraft(reusing: try await compete.managed(id, by: account.user).competition)
            return .page(
                page(
                    draft, title: request.t("Reuse “{name}”", ["name": draft.name]), submit: request.t("Activate"),
                    action: SiteRoutes.newCompetition.path, from: id, request.t))
        }
        return .page(
            page(
                Self.blank, title: request.t("New competition"), submit: request.t("Activate"),
                action: SiteRoutes.newCompetition.path, request.t))
    }

    @Sendable func create(_ request: PageRequest, _ account: Authenticated, _ form: CompetitionForm) async throws
        -> PageAnswer
    {
        let from = form.from.flatMap { Int64($0) }
        do {
            let change = try change(form)
            let competition =
                if let from {
                    try await compete.reuse(from, change: change, by: account.user)
                } else {
                    try await compete.create(change.applied(to: Self.blank), by: account.user)
                }
            return .redirect(
                SiteRoutes.competition.path(competition.id),
                flash: request.t("“{name}” is created and active.", ["name": competition.name]))
        } catch {
            guard let problem = Problem(describing: error), problem.status == .unprocessableContent else { throw error }
            return .page(
                page(
                    shown(form), title: request.t("New competition"), submit: request.t("Activate"),
                    action: SiteRoutes.newCompetition.path, from: from,
                    errors: FieldErrors(ValidationFailure(problem.errors), request.t), request.t),
                status: .unprocessableContent)
        }
    }

    // MARK: Edit

    @Sendable func editPage(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let id = try request.id()
        let competition = try await compete.managed(id, by: account.user).competition
        return .page(
            page(
                CompetitionDraft(reusing: competition), title: request.t("Edit “{name}”", ["name": competition.name]),
                submit: request.t("Save"), action: SiteRoutes.editCompetition.path(id),
                cancel: SiteRoutes.competition.path(id), choosesKind: false, request.t))
    }

    @Sendable func edit(_ request: PageRequest, _ account: Authenticated, _ form: CompetitionForm) async throws
        -> PageAnswer
    {
        let id = try request.id()
        do {
            _ = try await compete.edit(id, change: try change(form), by: account.user)
            return .redirect(SiteRoutes.competition.path(id), flash: request.t("Saved."))
        } catch {
            guard let problem = Problem(describing: error) else { throw error }
            if problem.status == .conflict {
                return .redirect(SiteRoutes.competition.path(id), flash: request.t.detail(problem), kind: .error)
            }
            guard problem.status == .unprocessableContent else { throw error }
            return .page(
                page(
                    shown(form), title: request.t("Edit competition"), submit: request.t("Save"),
                    action: SiteRoutes.editCompetition.path(id), cancel: SiteRoutes.competition.path(id),
                    choosesKind: false, errors: FieldErrors(ValidationFailure(problem.errors), request.t), request.t),
                status: .unprocessableContent)
        }
    }
}

/// The categories of the competition form, one per line: a name, and for age categories the
/// ages after a colon ("Juniors: 16-19", "Veterans: 40-", "Children: -12", "Twenty: 20").
enum CategoryLines {
    static func text(_ categories: [Category], rule: CategoryRule) -> String {
        categories.map { category in
            guard rule == .age else { return category.name }
            let ages =
                category.minAge == category.maxAge
                ? category.minAge.map(String.init) ?? ""
                : "\(category.minAge.map(String.init) ?? "")-\(category.maxAge.map(String.init) ?? "")"
            return "\(category.name): \(ages)"
        }.joined(separator: "\n")
    }

    /// The categories of the lines (blank lines left out), and the first line that names no ages
    /// where they go by age. More than the limit are read, for the rules to refuse.
    static func read(_ text: String, rule: CategoryRule) -> (list: [Category], unreadable: String?) {
        var list: [Category] = []
        var unreadable: String?
        for line in text.split(whereSeparator: \.isNewline).prefix(CategoryRules.categoryLimit + 1) {
            let line = TextRules.trimmed(line)
            guard !line.isEmpty else { continue }
            guard rule == .age else {
                list.append(Category(name: line))
                continue
            }
            guard let colon = line.lastIndex(of: ":"), let ages = ages(line[line.index(after: colon)...]) else {
                unreadable = unreadable ?? line
                continue
            }
            list.append(Category(name: String(line[..<colon]), minAge: ages.0, maxAge: ages.1))
        }
        return (list, unreadable)
    }

    /// "18-29", "40-", "-17" or "20" (a hyphen or a dash between).
    private static func ages(_ text: Substring) -> (Int?, Int?)? {
        let text = text.trimmingCharacters(in: .whitespaces)
        if let age = Int(text) { return (age, age) }
        let parts = text.split(omittingEmptySubsequences: false) { "-–—".contains($0) }
        guard parts.count == 2 else { return nil }
        let low = parts[0].trimmingCharacters(in: .whitespaces)
        let high = parts[1].trimmingCharacters(in: .whitespaces)
        guard low.isEmpty || Int(low) != nil, high.isEmpty || Int(high) != nil, !(low.isEmpty && high.isEmpty)
        else { return nil }
        return (Int(low), Int(high))
    }
}

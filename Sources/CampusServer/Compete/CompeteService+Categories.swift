import Accounts
import Compete
import Foundation
import InputRules
import Storage

/// What a participant or an organizer changes of an entry: nil keeps a field, `.some(nil)`
/// clears it.
struct EntryChange: Sendable {
    var category: String??
    var team: String??
    var bornOn: String??
}

/// Categories and teams (issue 41): which category an entry is in, and changing it.
extension CompeteService {
    /// The Gregorian calendar of the institution, which decides the race day and ages.
    var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The day ages are counted on: the competition's start, or today.
    func raceDay(_ competition: Competition) -> Date { competition.startsAt ?? now() }

    /// Changes an entry's category, team or birth date: the participant themselves, or its
    /// organizers (and admins), while the competition is active.
    func updateEntry(_ id: Int64, participant: Int64, change: EntryChange, by user: Account) async throws
        -> (Entry, EntryDetails)
    {
        let visible = try await visible(id, to: user)
        let competition = visible.competition
        guard visible.canManage || participant == user.id else {
            throw Refusal.notAllowed("Only the participant or the competition's organizers may change this entry.")
        }
        guard competition.isActive else {
            throw Self.inactive(
                competition,
                detail: "“{name}” is deactivated: entries cannot change. Its organizer can activate it again.")
        }
        let changed = try await database.write { db -> (Entry, EntryDetails, Int64)? in
            let store = CompeteStore(db)
            let all = try await store.details(competitionID: id)
            guard let current = all[participant] else { return nil }
            let details = try resolved(
                change, current: current, in: competition, byOrganizer: visible.canManage,
                teams: all.values.compactMap(\.team))
            if details != current { try await store.setDetails(competitionID: id, userID: participant, details) }
            guard let entry = try await store.entry(competitionID: id, userID: participant),
                let version = try await store.resultsVersion(id: id)
            else { return nil }
            return (entry, details, version)
        }
        guard let (entry, details, version) = changed else {
            throw Self.notParticipant(detail: "Account {id} is not in this competition.", ["id": String(participant)])
        }
        await leaderboards.changed(id, version: version, participant: participant, entry: entry)
        return (entry, details)
    }

    /// The details after `change`, by the competition's rules: a category chosen from its list,
    /// worked out from a birth date (the age on the race day), or, by group, the profile's group
    /// (which only organizers change); a team in the spelling of a team already there.
    func resolved(
        _ change: EntryChange, current: EntryDetails, in competition: Competition, byOrganizer: Bool,
        teams: [String]
    ) throws -> EntryDetails {
        var details = current
        if let team = change.team {
            if let team, !TextRules.isBlank(team) {
                guard competition.teams != .off else {
                    throw Refusal.invalid(FieldProblem(field: "team", detail: "This competition has no teams."))
                }
                let name: String
                do { name = try CategoryRules.team(team) } catch { throw Refusal.invalid(error.fieldProblem) }
                details.team = teams.first { $0.lowercased() == name.lowercased() } ?? name
            } else {
                details.team = nil
            }
        }
        if let bornOn = change.bornOn {
            if let bornOn, !TextRules.isBlank(bornOn) {
                guard competition.categoryRule == .age else {
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "bornOn", detail: "Only a competition with age categories asks for a birth date."))
                }
                let age = try age(bornOn, in: competition)
                guard let category = CategoryRules.category(age: age, in: competition.categories) else {
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "bornOn", detail: "No category of this competition takes the age of {age}.",
                            ["age": String(age)]))
                }
                details.bornOn = bornOn
                details.category = category.name
            } else {
                details.bornOn = nil
                if competition.categoryRule == .age { details.category = nil }
            }
        }
        if let category = change.category {
            details.category = try chosen(category, in: competition, byOrganizer: byOrganizer)
        }
        return details
    }

    /// A category given by name: one of the list where categories are chosen (or, by an
    /// organizer, where they go by age), any name by an organizer where they go by group.
    private func chosen(_ name: String?, in competition: Competition, byOrganizer: Bool) throws -> String? {
        guard let name, !TextRules.isBlank(name) else { return nil }
        switch competition.categoryRule {
        case .none:
            throw Refusal.invalid(FieldProblem(field: "category", detail: "This competition has no categories."))
        case .age where !byOrganizer:
            throw Refusal.invalid(
                FieldProblem(field: "category", detail: "Categories here go by age: give your birth date instead."))
        case .group where !byOrganizer:
            throw Refusal.invalid(
                FieldProblem(
                    field: "category",
                    detail: "Categories here go by group, from your profile; an organizer can change yours."))
        case .group:
            let (listed, errors) = CategoryRules.validated([Category(name: name)], rule: .choice)
            if let error = errors.first { throw Refusal.invalid(error.fieldProblem) }
            return listed.first?.name
        case .choice, .age:
            guard let category = CategoryRules.listed(name, in: competition.categories) else {
                throw Refusal.invalid(
                    FieldProblem(
                        field: "category", detail: "“{name}” is not one of this competition's categories.",
                        ["name": name]))
            }
            return category.name
        }
    }

    /// The age on the race day of someone born on `text` (YYYY-MM-DD).
    private func age(_ text: String, in competition: Competition) throws -> Int {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        var born = DateComponents()
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let year = Int(parts[0]), DateRules.years.contains(year)
        {
            born.year = year
            born.month = Int(parts[1])
            born.day = Int(parts[2])
        }
        guard born.year != nil, let age = CategoryRules.age(born: born, on: raceDay(competition), calendar: calendar)
        else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "bornOn", detail: "“{text}” is not a birth date before the race day (YYYY-MM-DD).",
                    ["text": text]))
        }
        return age
    }

    /// What joining puts in an entry: the details given, and by group the profile's group.
    func joiningDetails(_ change: EntryChange, in competition: Competition, user: Account, teams: [String]) throws
        -> EntryDetails
    {
        var details = try resolved(change, current: EntryDetails(), in: competition, byOrganizer: false, teams: teams)
        if competition.categoryRule == .group, change.category == nil {
            details.category = user.group.map { TextRules.trimmed($0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        return details
    }

    /// After the competition's rule, categories or start changed: by age every birth date
    /// counts again on the new race day; a category no longer listed is left; by group every
    /// entry takes its participant's group; with no rule no entry keeps a category or a birth date.
    /// Called in the edit's transaction, which changes the ranking's version once for all of it.
    func recategorize(_ competition: Competition, was previous: Competition, in store: CompeteStore) async throws {
        guard
            competition.categoryRule != previous.categoryRule || competition.categories != previous.categories
                || (competition.categoryRule == .age && competition.startsAt != previous.startsAt)
        else { return }
        if competition.categoryRule == .group {
            if previous.categoryRule != .group { try await store.categoriesFromGroups(competitionID: competition.id) }
            return
        }
        for (participant, current) in try await store.details(competitionID: competition.id) {
            var details = current
            switch competition.categoryRule {
            case .none, .group:
                details.category = nil
                details.bornOn = nil
            case .choice:
                details.bornOn = nil
                details.category = details.category.flatMap {
                    CategoryRules.listed($0, in: competition.categories)?.name
                }
            case .age:
                if let bornOn = details.bornOn {
                    let age = try? age(bornOn, in: competition)
                    details.category = age.flatMap { CategoryRules.category(age: $0, in: competition.categories)?.name }
                } else {
                    details.category = details.category.flatMap {
                        CategoryRules.listed($0, in: competition.categories)?.name
                    }
                }
            }
            if details != current {
                try await store.setDetails(competitionID: competition.id, userID: participant, details, announce: false)
            }
        }
    }

    /// The teams of a competition, ranked by its scoring.
    func teams(_ snapshot: Leaderboards.Snapshot) -> [TeamStanding] {
        Ranking.teams(
            snapshot.ranked.map(\.entry), by: snapshot.competition.ranksBy, scoring: snapshot.competition.teams)
    }
}

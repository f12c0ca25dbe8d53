import Accounts
import Foundation
import InputRules
import Storage
import Timetable

/// Seed 003's electives: a student's speciality and year, the subjects they take and the group of
/// each; my schedule holds the lessons of the chosen groups.
extension MyTimetableService {
    /// A subject the student takes, with how they take it and its group.
    struct ElectiveView: Sendable {
        var subject: ImportedSubject
        /// Normative, professional or free choice, for this student.
        var kind: ImportedSubject.Kind
        var group: Int
    }

    /// Two lessons of the student's chosen groups at the same time.
    struct Overlap: Sendable {
        var first: Occurrence
        var second: Occurrence
    }

    struct ElectivesView: Sendable {
        var speciality: String?
        var year: Int?
        var subjects: [ElectiveView]
        var overlaps: [Overlap]
    }

    /// The most years a speciality has.
    static let maximumYear = 6

    /// What the student takes, and which of their chosen lessons overlap.
    func electives(of user: Account) async throws -> ElectivesView {
        let (programme, choices, catalogue) = try await database.read { db in
            let personal = PersonalStore(db)
            return (
                try await personal.studyProgramme(userID: user.id), try await personal.electiveChoices(userID: user.id),
                try await TimetableStore(db).subjects()
            )
        }
        let byID = Dictionary(catalogue.map { ($0.id, $0) }) { first, _ in first }
        let subjects = choices.compactMap { choice -> ElectiveView? in
            guard let subject = byID[choice.subjectID] else { return nil }
            let kind =
                choice.isNormative
                ? .normative
                : programme.flatMap { Electives.kind(of: subject, speciality: $0.speciality, year: $0.year) }
                    ?? .freeChoice
            return ElectiveView(subject: subject, kind: kind, group: choice.group)
        }
        return ElectivesView(
            speciality: programme?.speciality, year: programme?.year, subjects: subjects,
            overlaps: try await overlaps(of: choices))
    }

    /// The timetable groups of the chosen groups that the timetable has.
    func electiveGroups(of user: Account) async throws -> [String] {
        try await database.read { db in
            let names = try await PersonalStore(db).electiveChoices(userID: user.id).filter { $0.group > 0 }.map {
                Electives.groupName(subject: $0.subjectID, group: $0.group)
            }
            let found = try await TimetableStore(db).existingGroups(names)
            return names.filter(found.contains)
        }
    }

    /// Pairs of chosen lessons that overlap, over the span of their lessons (at most a year).
    private func overlaps(of choices: [Electives.Choice]) async throws -> [Overlap] {
        let groups = choices.filter { $0.group > 0 }.map { Electives.groupName(subject: $0.subjectID, group: $0.group) }
        guard groups.count > 1 else { return [] }
        let lessons = try await database.read { db in try await TimetableStore(db).lessons(groups: groups) }
        let days = lessons.flatMap { [$0.date, $0.dateRange?.lowerBound, $0.dateRange?.upperBound].compactMap { $0 } }
        guard let first = days.min(), let last = days.max() else { return [] }
        let range = first...min(last, first.adding(days: TimetableService.maximumDays))
        // One holder for all of the student's lessons: any two that overlap clash for them.
        let mine = lessons.map { lesson -> Lesson in
            var lesson = lesson
            lesson.groups = ["mine"]
            lesson.rooms = []
            lesson.teachers = []
            return lesson
        }
        let original = Dictionary(lessons.map { ($0.id, $0) }) { first, _ in first }
        return Conflict.find(in: mine, range: range, calendar: try await timetable.studyCalendar(), kinds: [.group])
            .map {
                Overlap(
                    first: Occurrence(lesson: original[$0.first.lesson.id] ?? $0.first.lesson, date: $0.first.date),
                    second: Occurrence(lesson: original[$0.second.lesson.id] ?? $0.second.lesson, date: $0.second.date))
            }
    }

    /// Sets the speciality (its name, or its code or the beginning of its name when that names one)
    /// and year: the normative subjects are derived again, the rest kept.
    func setStudyProgramme(speciality: String, year: Int, of user: Account) async throws -> ElectivesView {
        let catalogue = try await directory.subjects()
        var validator = Validator()
        let found = Electives.speciality(speciality, among: Set(catalogue.map(\.speciality)))
        if found == nil {
            validator.add(
                FieldProblem(field: "speciality", detail: "There is no speciality “{name}”.", ["name": speciality]))
        }
        if !(1...Self.maximumYear).contains(year) {
            validator.add(
                FieldProblem(field: "year", detail: "must be 1 to {maximum}.", ["maximum": String(Self.maximumYear)]))
        }
        try validator.finish()
        guard let speciality = found else { return try await electives(of: user) }
        try await database.write { db in
            let store = PersonalStore(db)
            let choices = Electives.rederive(
                try await store.electiveChoices(userID: user.id), catalogue: catalogue, speciality: speciality,
                year: year)
            try await store.setStudyProgramme(userID: user.id, speciality: speciality, year: year, choices: choices)
        }
        return try await electives(of: user)
    }

    /// Adds a subject (group 0: not chosen yet) or chooses its group.
    func chooseElective(subjectID: Int, group: Int, of user: Account) async throws -> ElectivesView {
        guard let subject = try await directory.subjects().first(where: { $0.id == subjectID }) else {
            throw Refusal.notFound("There is no subject {id}.", ["id": String(subjectID)])
        }
        guard (0...subject.numberOfGroups).contains(group) else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "group", detail: "{name} has groups 1 to {count} (0: not chosen yet).",
                    ["name": subject.name, "count": String(subject.numberOfGroups)]))
        }
        try await database.write { db in
            let store = PersonalStore(db)
            guard let programme = try await store.studyProgramme(userID: user.id) else {
                throw Refusal.conflict("Choose your speciality and year first.")
            }
            let choices = try await store.electiveChoices(userID: user.id)
            let existing = choices.first { $0.subjectID == subjectID }
            guard let kind = Electives.kind(of: subject, speciality: programme.speciality, year: programme.year)
            else {
                throw Refusal.invalid(
                    FieldProblem(
                        field: "subjectId",
                        detail: "{name} is a normative subject of another year of your speciality; it cannot be taken.",
                        ["name": subject.name]))
            }
            guard existing != nil || choices.count < Electives.maximumChoices else {
                throw Refusal.conflict(
                    "You take {limit} subjects already; remove one first.", ["limit": String(Electives.maximumChoices)])
            }
            try await store.setElective(
                Electives.Choice(
                    subjectID: subjectID, group: group, isNormative: existing?.isNormative ?? (kind == .normative)),
                userID: user.id)
        }
        return try await electives(of: user)
    }

    /// Stops taking a subject; normative ones stay (their group can be left unchosen).
    func removeElective(subjectID: Int, of user: Account) async throws {
        try await database.write { db in
            let store = PersonalStore(db)
            guard
                let choice = try await store.electiveChoices(userID: user.id).first(where: { $0.subjectID == subjectID }
                )
            else { throw Refusal.notFound("You do not take subject {id}.", ["id": String(subjectID)]) }
            guard !choice.isNormative else {
                throw Refusal.conflict(
                    "Normative subjects stay with your speciality and year; leave the group unchosen instead.")
            }
            _ = try await store.removeElective(subjectID: subjectID, userID: user.id)
        }
    }
}

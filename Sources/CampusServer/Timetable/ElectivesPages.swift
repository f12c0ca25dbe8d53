import CampusHTTP
import Foundation
import InputRules
import Localization
import Timetable

/// The electives page: choose a speciality and year, add subjects, choose their groups.
struct ElectivesPages: Sendable {
    let directory: TimetableDirectory
    let myTimetable: MyTimetableService
    var mine: MyTimetableService { myTimetable }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.electives, page)
        pages.form(SiteRoutes.studyProgramme, ProgrammeForm.self, setProgramme)
        pages.form(SiteRoutes.elective, GroupForm.self, choose)
        pages.form(SiteRoutes.deleteElective, CSRFForm.self, remove)
    }

    /// How many subjects a search shows.
    static let foundLimit = 30

    @Sendable func page(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let t = request.t
        let view = try await mine.electives(of: account.user)
        let specialities = try await directory.specialities(search: nil)
        let taken = Set(view.subjects.map(\.subject.id))
        var found: [ElectivesPage.Found] = []
        let query = request.text("q")
        if let query, let speciality = view.speciality, let year = view.year {
            let candidates = try await directory.subjects(search: query)
            found = candidates.filter { subject in
                !taken.contains(subject.id)
                    && Electives.kind(of: subject, speciality: speciality, year: year).map { $0 != .normative } == true
            }.prefix(Self.foundLimit).map { subject in
                .init(
                    name: subject.name, detail: Self.detail(subject, t),
                    action: SiteRoutes.elective.path(Int64(subject.id)))
            }
        }
        let sections: [(ImportedSubject.Kind, String, String)] = [
            (.normative, t("Normative subjects"), "normative"), (.professional, t("Professional subjects"), "prof"),
            (.freeChoice, t("Free-choice subjects"), "selective"),
        ]
        return .page(
            ElectivesPage(
                speciality: view.speciality ?? "", specialities: specialities.map(\.name),
                years: (1...MyTimetableService.maximumYear).map {
                    .init(value: String($0), label: String($0), selected: $0 == view.year)
                },
                hasProgramme: view.speciality != nil,
                sections: sections.map { kind, title, id in
                    let subjects = view.subjects.filter { $0.kind == kind }.map { Self.row($0, t) }
                    return .init(title: title, id: id, subjects: subjects, empty: subjects.isEmpty)
                }, q: query ?? "", found: found, searched: query != nil,
                overlaps: view.overlaps.map { overlap in
                    .init(
                        date: ScheduleText(t: t).date(overlap.first.date),
                        first: Self.lesson(overlap.first), second: Self.lesson(overlap.second))
                }, hasOverlaps: !view.overlaps.isEmpty))
    }

    static func lesson(_ occurrence: Occurrence) -> String {
        "\(occurrence.lesson.start)–\(occurrence.lesson.end) \(occurrence.lesson.subject)"
    }

    /// "Факультет інформатики · year 3 · trimester 3 · 4 groups".
    static func detail(_ subject: ImportedSubject, _ t: Translator) -> String {
        var parts = [subject.speciality]
        parts.append(t("year {year}", ["year": String(subject.year)]))
        if let trimester = subject.trimester { parts.append(t("trimester {number}", ["number": String(trimester)])) }
        parts.append(t.plural("{count} group", "{count} groups", subject.numberOfGroups))
        return parts.joined(separator: " · ")
    }

    static func row(_ elective: MyTimetableService.ElectiveView, _ t: Translator) -> ElectivesPage.Subject {
        let subject = elective.subject
        let groupName = elective.group > 0 ? Electives.groupName(subject: subject.id, group: elective.group) : nil
        return .init(
            id: subject.id, name: subject.name, detail: detail(subject, t),
            groups: [.init(value: "0", label: t("not chosen"), selected: elective.group == 0)]
                + (1...max(1, subject.numberOfGroups)).map {
                    .init(
                        value: String($0), label: t("group {number}", ["number": String($0)]),
                        selected: $0 == elective.group)
                },
            action: SiteRoutes.elective.path(Int64(subject.id)),
            deleteAction: elective.kind == .normative ? nil : SiteRoutes.deleteElective.path(Int64(subject.id)),
            groupURL: groupName.map { SiteRoutes.group.path($0) }, groupName: groupName)
    }

    struct ProgrammeForm: PageForm {
        var _csrf: String?
        var speciality: String?
        var year: String?
    }

    @Sendable func setProgramme(_ request: PageRequest, _ account: Authenticated, _ form: ProgrammeForm) async throws
        -> PageAnswer
    {
        do {
            _ = try await mine.setStudyProgramme(
                speciality: form.speciality?.trimmingCharacters(in: .whitespaces) ?? "",
                year: form.year.flatMap { Int($0) } ?? 0, of: account.user)
            return .redirect(SiteRoutes.electives.path, flash: request.t("Your speciality and year are saved."))
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return .redirect(SiteRoutes.electives.path, flash: request.t.detail(refusal), kind: .error)
        }
    }

    struct GroupForm: PageForm {
        var _csrf: String?
        var group: String?
    }

    @Sendable func choose(_ request: PageRequest, _ account: Authenticated, _ form: GroupForm) async throws
        -> PageAnswer
    {
        let subjectID = try request.id("subjectId")
        guard subjectID <= Int64(Int32.max) else { throw Refusal.notFound("There is nothing at this address.") }
        do {
            _ = try await mine.chooseElective(
                subjectID: Int(subjectID), group: form.group.flatMap { Int($0) } ?? 0, of: account.user)
            return .redirect(SiteRoutes.electives.path, flash: request.t("Saved."))
        } catch let refusal as Refusal where [.invalid, .conflict].contains(refusal.reason) {
            return .redirect(SiteRoutes.electives.path, flash: request.t.detail(refusal), kind: .error)
        }
    }

    @Sendable func remove(_ request: PageRequest, _ account: Authenticated, _ form: CSRFForm) async throws
        -> PageAnswer
    {
        let subjectID = try request.id("subjectId")
        guard subjectID <= Int64(Int32.max) else { throw Refusal.notFound("There is nothing at this address.") }
        do {
            try await mine.removeElective(subjectID: Int(subjectID), of: account.user)
            return .redirect(SiteRoutes.electives.path, flash: request.t("Removed."))
        } catch let refusal as Refusal where refusal.reason == .conflict {
            return .redirect(SiteRoutes.electives.path, flash: request.t.detail(refusal), kind: .error)
        }
    }
}

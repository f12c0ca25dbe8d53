import CampusAPI
import CampusHTTP
import Foundation
import Timetable

/// The subject catalogue and each student's electives (seed 003; issue 16, item 1).
extension APIHandler {
    func listSubjects(_ input: Operations.listSubjects.Input) async throws -> Operations.listSubjects.Output {
        let query = input.query
        let subjects = try await directory.subjects(
            search: query.q, speciality: query.speciality, year: query.year,
            kind: query.kind.flatMap { ImportedSubject.Kind(rawValue: $0.rawValue) })
        return .ok(.init(body: .json(subjects.map(\.api))))
    }

    func listSubjectSpecialities(_ input: Operations.listSubjectSpecialities.Input) async throws
        -> Operations.listSubjectSpecialities.Output
    {
        .ok(
            .init(
                body: .json(
                    try await directory.specialities(search: input.query.q).map {
                        .init(name: $0.name, code: $0.code, years: $0.years)
                    })))
    }

    func getMyElectives(_ input: Operations.getMyElectives.Input) async throws -> Operations.getMyElectives.Output {
        let account = try await requireUser()
        return .ok(.init(body: .json(try await api(services.myTimetable.electives(of: account.user)))))
    }

    func setStudyProgramme(_ input: Operations.setStudyProgramme.Input) async throws
        -> Operations.setStudyProgramme.Output
    {
        let account = try await requireUser()
        guard case .json(let body) = input.body else {
            throw Problem.badRequest("Send the speciality and year as JSON.")
        }
        let view = try await services.myTimetable.setStudyProgramme(
            speciality: body.speciality, year: body.year, of: account.user)
        return .ok(.init(body: .json(try await api(view))))
    }

    func chooseElective(_ input: Operations.chooseElective.Input) async throws -> Operations.chooseElective.Output {
        let account = try await requireUser()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the group as JSON.") }
        let view = try await services.myTimetable.chooseElective(
            subjectID: input.path.subjectId, group: body.group, of: account.user)
        return .ok(.init(body: .json(try await api(view))))
    }

    func removeElective(_ input: Operations.removeElective.Input) async throws -> Operations.removeElective.Output {
        let account = try await requireUser()
        try await services.myTimetable.removeElective(subjectID: input.path.subjectId, of: account.user)
        return .noContent(.init())
    }

    private func api(_ view: MyTimetableService.ElectivesView) async throws -> Components.Schemas.MyElectives {
        let types = try await timetable.lessonTypes()
        return .init(
            speciality: view.speciality, year: view.year,
            subjects: view.subjects.map {
                .init(
                    subject: $0.subject.api, kind: .init(rawValue: $0.kind.rawValue) ?? .selective, group: $0.group,
                    groupName: $0.group > 0 ? Electives.groupName(subject: $0.subject.id, group: $0.group) : nil)
            },
            overlaps: view.overlaps.map {
                .init(first: $0.first.api(types: types), second: $0.second.api(types: types))
            })
    }
}

extension ImportedSubject {
    var api: Components.Schemas.Subject {
        .init(
            id: id, name: name, faculty: faculty, speciality: speciality,
            specialityCode: Electives.code(of: speciality),
            year: year, trimester: trimester, kind: .init(rawValue: kind.rawValue) ?? .selective,
            numberOfGroups: numberOfGroups)
    }
}

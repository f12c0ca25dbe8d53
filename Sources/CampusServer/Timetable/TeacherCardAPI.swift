import CampusAPI
import CampusHTTP
import Foundation
import OpenAPIRuntime
import Timetable

/// The API of teachers' cards by students: the card anyone reads, each user's own answer, and
/// admins' moderation.
extension APIHandler {
    func getTeacherCard(_ input: Operations.getTeacherCard.Input) async throws -> Operations.getTeacherCard.Output {
        let card = try await myTimetable.cardSummary(teacher: input.path.urlId)
        return .ok(
            .init(
                body: .json(
                    .init(
                        answers: card.answers,
                        attendance: .init(
                            yes: card.attendance[.yes] ?? 0, no: card.attendance[.no] ?? 0,
                            sometimes: card.attendance[.sometimes] ?? 0),
                        majorityAttendance: card.majorityAttendance.flatMap { .init(rawValue: $0.rawValue) },
                        automaticPass: .init(yes: card.automaticPassYes, no: card.automaticPassNo),
                        majorityAutomaticPass: card.majorityAutomaticPass,
                        descriptions: card.descriptions.filter { !$0.hidden }.map(\.text)))))
    }

    func getMyTeacherCardAnswer(_ input: Operations.getMyTeacherCardAnswer.Input) async throws
        -> Operations.getMyTeacherCardAnswer.Output
    {
        let user = try await requireUser().user
        guard let answer = try await myTimetable.cardAnswer(teacher: input.path.urlId, of: user) else {
            throw Problem.notFound("You have given no answer on the card of {id}.", ["id": input.path.urlId])
        }
        return .ok(.init(body: .json(answer.api)))
    }

    func answerTeacherCard(_ input: Operations.answerTeacherCard.Input) async throws
        -> Operations.answerTeacherCard.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the answer as JSON.") }
        let answer = try await myTimetable.answerCard(
            teacher: input.path.urlId, description: body.description,
            attendance: body.attendance.flatMap { TeacherCard.Attendance(rawValue: $0.rawValue) },
            automaticPass: body.automaticPass, for: user)
        return .ok(.init(body: .json(answer.api)))
    }

    func deleteTeacherCardAnswer(_ input: Operations.deleteTeacherCardAnswer.Input) async throws
        -> Operations.deleteTeacherCardAnswer.Output
    {
        let user = try await requireUser().user
        try await myTimetable.removeCardAnswer(teacher: input.path.urlId, for: user)
        return .noContent(.init())
    }

    func moderateTeacherCardAnswer(_ input: Operations.moderateTeacherCardAnswer.Input) async throws
        -> Operations.moderateTeacherCardAnswer.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the moderation as JSON.") }
        let answer = try await myTimetable.moderateCardAnswer(input.path.answerId, hidden: body.hidden, by: user)
        return .ok(.init(body: .json(answer.api)))
    }
}

extension TeacherCardAnswer {
    var api: Components.Schemas.TeacherCardAnswer {
        .init(
            id: id, teacher: teacher, description: description,
            attendance: attendance.flatMap { .init(rawValue: $0.rawValue) }, automaticPass: automaticPass,
            hidden: hidden)
    }
}

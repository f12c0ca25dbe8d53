import CampusAPI
import CampusHTTP
import Foundation
import OpenAPIRuntime

/// The API of a user's nicknames for groups and colours for lesson types.
extension APIHandler {
    func listNicknames(_ input: Operations.listNicknames.Input) async throws -> Operations.listNicknames.Output {
        let user = try await requireUser().user
        let nicknames = try await myTimetable.nicknames(of: user)
        return .ok(
            .init(
                body: .json(
                    .init(items: nicknames.sorted { $0.key < $1.key }.map { .init(group: $0.key, nickname: $0.value) }))
            ))
    }

    func setNickname(_ input: Operations.setNickname.Input) async throws -> Operations.setNickname.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the nickname as JSON.") }
        let nickname = try await myTimetable.setNickname(body.nickname, group: input.path.name, for: user)
        return .ok(.init(body: .json(.init(group: input.path.name, nickname: nickname))))
    }

    func removeNickname(_ input: Operations.removeNickname.Input) async throws -> Operations.removeNickname.Output {
        let user = try await requireUser().user
        try await myTimetable.removeNickname(group: input.path.name, for: user)
        return .noContent(.init())
    }

    func listLessonColours(_ input: Operations.listLessonColours.Input) async throws
        -> Operations.listLessonColours.Output
    {
        let user = try await requireUser().user
        let colours = try await myTimetable.lessonColours(of: user)
        return .ok(
            .init(
                body: .json(
                    .init(items: colours.sorted { $0.key < $1.key }.map { .init(typeId: $0.key, colour: $0.value) }))))
    }

    func setLessonColour(_ input: Operations.setLessonColour.Input) async throws -> Operations.setLessonColour.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the colour as JSON.") }
        let colour = try await myTimetable.setLessonColour(body.colour, type: input.path.typeId, for: user)
        return .ok(.init(body: .json(.init(typeId: input.path.typeId, colour: colour))))
    }

    func removeLessonColour(_ input: Operations.removeLessonColour.Input) async throws
        -> Operations.removeLessonColour.Output
    {
        let user = try await requireUser().user
        try await myTimetable.removeLessonColour(type: input.path.typeId, for: user)
        return .noContent(.init())
    }
}

import CampusAPI
import CampusHTTP
import Compete
import Foundation

/// Honest results in the API (issue 41): the review queue, decisions and appeals.
extension APIHandler {
    func listReviews(_ input: Operations.listReviews.Input) async throws -> Operations.listReviews.Output {
        let user = try await requireUser().user
        let (visible, entries) = try await compete.reviews(input.path.competitionId, by: user)
        return .ok(
            .init(body: .json(entries.map { $0.api(rank: nil, competition: visible.competition, detailed: true) })))
    }

    func decideReview(_ input: Operations.decideReview.Input) async throws -> Operations.decideReview.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the decision as JSON.") }
        let id = input.path.competitionId
        let entry = try await compete.decide(
            id, participant: input.path.userId, accept: body.decision == .accept, reason: body.reason, by: user)
        return .ok(.init(body: .json(try await rankedEntry(entry, in: id, for: user))))
    }

    func appealResult(_ input: Operations.appealResult.Input) async throws -> Operations.appealResult.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the appeal as JSON.") }
        let id = input.path.competitionId
        let entry = try await compete.appeal(id, text: body.text, user: user)
        return .ok(.init(body: .json(try await rankedEntry(entry, in: id, for: user))))
    }
}

import CampusHTTP
import Foundation

/// How a form post on a competition answers: it goes back to the competition with the message
/// the action returns; an action the competition refuses (it is over, a value is wrong) comes
/// back as a message too, not as an error page.
enum CompetitionActionAnswer {
    static func shown(_ request: PageRequest, _ body: (Int64) async throws -> String) async throws -> PageAnswer {
        let id = try request.id()
        do {
            return .redirect(SiteRoutes.competition.path(id), flash: try await body(id))
        } catch {
            guard let problem = Problem(describing: error), [.conflict, .unprocessableContent].contains(problem.status)
            else { throw error }
            return .redirect(SiteRoutes.competition.path(id), flash: request.t.detail(problem), kind: .error)
        }
    }
}

import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers `GET /api/v1/competitions/{competitionId}/ranking` (the operation marked
/// `x-campus-fast-path: ranking-page`) from the page bytes kept with the ranking, so
/// that a popular ranking is encoded once per change rather than once per request. The viewer is
/// authenticated and checked exactly as ``APIHandler/getRanking(_:)`` does; whatever this
/// middleware does not answer (no login, a competition the viewer may not see, a bad page, the
/// `friends` view, which differs per viewer, and one category's ranking) goes on to that handler, which answers it with the
/// same rules.
struct RankingPageFastPath: FastOperation {
    let compete: CompeteService
    let authenticator: Authenticator

    /// The operation's `x-campus-fast-path`.
    static let name = FastOperationName.rankingPage

    func answer(_ request: Request, context: CampusRequestContext) async throws -> Response? {
        guard request.method == .get,
            let id = context.parameters.get("competitionId", as: Int64.self), id > 0
        else {
            return nil
        }
        let query = request.uri.queryParameters
        guard query["friends"] == nil, query["category"] == nil else { return nil }
        guard let paging = try? Paging(limit: Self.number(query["limit"]), offset: Self.number(query["offset"])),
            query["limit"] == nil || Self.number(query["limit"]) != nil,
            query["offset"] == nil || Self.number(query["offset"]) != nil,
            let user = try? await authenticator.requireUser().user,
            let snapshot = try? await compete.ranking(id, for: user)
        else { return nil }
        let etag = "\"r\(id)-\(snapshot.version)-\(paging.limit)-\(paging.offset)\""
        if let match = RequestScope.current?.ifNoneMatch, EntityTag.matches(match, etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "private, no-cache"])
        }
        let body = snapshot.json(limit: paging.limit, offset: paging.offset)
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/json; charset=utf-8", .eTag: etag, .cacheControl: "private, no-cache",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func number(_ text: Substring?) -> Int? { text.flatMap { Int($0) } }
}

extension FastOperationName {
    static let rankingPage = FastOperationName("ranking-page")
}

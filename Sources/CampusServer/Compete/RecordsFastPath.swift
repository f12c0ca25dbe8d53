import CampusAPI
import CampusHTTP
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers `GET /api/v1/competitions/{competitionId}/records` (the operation marked
/// `x-campus-fast-path: competition-records`) from the JSON `SeriesRecords` keeps per change of
/// the runs' rankings: a popular competition's records (up to 50 holders each) are written once
/// per change rather than once per request. The viewer is authenticated and checked as
/// ``APIHandler/getCompetitionRecords(_:)`` does; what this middleware does not answer goes on to
/// that handler, which answers it with the same rules.
struct RecordsFastPath: FastOperation {
    let compete: CompeteService
    let authenticator: Authenticator

    /// The operation's `x-campus-fast-path`.
    static let name = FastOperationName.competitionRecords

    func answer(_ request: Request, context: CampusRequestContext) async throws -> Response? {
        guard request.method == .get,
            let id = context.parameters.get("competitionId", as: Int64.self), id > 0,
            let user = try? await authenticator.requireUser().user,
            let snapshot = try? await compete.ranking(id, for: user),
            let (tag, json) = try? await compete.seriesRecords.json(
                of: snapshot.competition, encode: Self.encode)
        else { return nil }
        let etag = "\"c\(id)-\(tag)\""
        if let match = RequestScope.current?.ifNoneMatch, EntityTag.matches(match, etag) {
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: "private, no-cache"])
        }
        return Response(
            status: .ok,
            headers: [
                .contentType: "application/json; charset=utf-8", .eTag: etag, .cacheControl: "private, no-cache",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: json)))
    }

    /// The document the generated handler writes, with the same encoder.
    static func encode(_ answer: SeriesRecords.Answer) -> [UInt8] {
        let document = Components.Schemas.CompetitionRecords(
            competition: answer.competition?.api, series: answer.series?.api, runs: answer.runs)
        return (try? APIJSON.encoder().encode(document)).map(Array.init) ?? Array("{}".utf8)
    }
}

extension FastOperationName {
    static let competitionRecords = FastOperationName("competition-records")
}
